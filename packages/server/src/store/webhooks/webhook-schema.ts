import { postgresDialect, sqliteDialect, type SqlDialect } from '../sql-dialect.js';
import { addColumns, createTable } from '../table-schema.js';
import { DELIVERIES_TABLE, OUTBOX_TABLE, PAYLOADS_TABLE, SUBSCRIPTIONS_TABLE } from './webhook-tables.js';

/**
 * The webhook tables and the triggers that fill the outbox, for both databases. The
 * outbox is written by the database itself, in the transaction of the change it reports
 * (a run created or changing state, an artifact, a follow-up, a schedule firing), so a
 * change is never reported that did not happen, and none is lost if the server dies
 * after the commit. While no enabled subscription wants a change's event type, nothing is written
 * (from the step that writes the triggers again by type).
 */

/** The webhook tables as their first step makes them, from their descriptions (webhook-tables.ts). */
const TABLES = (dialect: SqlDialect) => `
${createTable(SUBSCRIPTIONS_TABLE, dialect)}${createTable(OUTBOX_TABLE, dialect)}${createTable(DELIVERIES_TABLE, dialect, { later: ['payload_seq'] })}`;

export const SQLITE_WEBHOOKS = `${TABLES(sqliteDialect)}
CREATE TRIGGER webhook_run_created AFTER INSERT ON runs
WHEN EXISTS (SELECT 1 FROM webhook_subscriptions WHERE enabled = 1)
BEGIN
  INSERT INTO webhook_outbox (kind, run_id, state, at) VALUES ('run.created', NEW.id, NEW.state, NEW.created_at);
END;
CREATE TRIGGER webhook_run_state_changed AFTER UPDATE OF state ON runs
WHEN NEW.state IS NOT OLD.state AND EXISTS (SELECT 1 FROM webhook_subscriptions WHERE enabled = 1)
BEGIN
  INSERT INTO webhook_outbox (kind, run_id, state, previous_state, at) VALUES ('run.state_changed', NEW.id, NEW.state, OLD.state, NEW.updated_at);
END;
CREATE TRIGGER webhook_artifact_created AFTER INSERT ON artifacts
WHEN EXISTS (SELECT 1 FROM webhook_subscriptions WHERE enabled = 1)
BEGIN
  INSERT INTO webhook_outbox (kind, run_id, subject_id, at) VALUES ('run.artifact_created', NEW.run_id, NEW.uid, NEW.created_at);
END;
CREATE TRIGGER webhook_followup_received AFTER INSERT ON run_messages
WHEN NEW.kind = 'followup' AND EXISTS (SELECT 1 FROM webhook_subscriptions WHERE enabled = 1)
BEGIN
  INSERT INTO webhook_outbox (kind, run_id, subject_id, at) VALUES ('run.followup_received', NEW.run_id, NEW.id, NEW.created_at);
END;
CREATE TRIGGER webhook_schedule_fired AFTER UPDATE OF run_id, error ON schedule_firings
WHEN (NEW.run_id IS NOT NULL OR NEW.error IS NOT NULL) AND OLD.run_id IS NULL AND OLD.error IS NULL
  AND EXISTS (SELECT 1 FROM webhook_subscriptions WHERE enabled = 1)
BEGIN
  INSERT INTO webhook_outbox (kind, run_id, subject_id, at)
  VALUES (CASE WHEN NEW.run_id IS NOT NULL THEN 'schedule.fired' ELSE 'schedule.failed' END, NEW.run_id, NEW.schedule_id, NEW.fired_at);
END;
`;

export const POSTGRES_WEBHOOKS = `${TABLES(postgresDialect)}
CREATE FUNCTION agent_runs_webhook_outbox() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_subscriptions WHERE enabled) THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'runs' THEN
    IF TG_OP = 'INSERT' THEN
      INSERT INTO webhook_outbox (kind, run_id, state, at) VALUES ('run.created', NEW.id, NEW.state, NEW.created_at);
    ELSIF NEW.state IS DISTINCT FROM OLD.state THEN
      INSERT INTO webhook_outbox (kind, run_id, state, previous_state, at) VALUES ('run.state_changed', NEW.id, NEW.state, OLD.state, NEW.updated_at);
    END IF;
  ELSIF TG_TABLE_NAME = 'artifacts' THEN
    INSERT INTO webhook_outbox (kind, run_id, subject_id, at) VALUES ('run.artifact_created', NEW.run_id, NEW.uid, NEW.created_at);
  ELSIF TG_TABLE_NAME = 'run_messages' THEN
    IF NEW.kind = 'followup' THEN
      INSERT INTO webhook_outbox (kind, run_id, subject_id, at) VALUES ('run.followup_received', NEW.run_id, NEW.id, NEW.created_at);
    END IF;
  ELSIF TG_TABLE_NAME = 'schedule_firings' THEN
    IF (NEW.run_id IS NOT NULL OR NEW.error IS NOT NULL) AND OLD.run_id IS NULL AND OLD.error IS NULL THEN
      INSERT INTO webhook_outbox (kind, run_id, subject_id, at)
      VALUES (CASE WHEN NEW.run_id IS NOT NULL THEN 'schedule.fired' ELSE 'schedule.failed' END, NEW.run_id, NEW.schedule_id, NEW.fired_at);
    END IF;
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER webhook_run_change AFTER INSERT OR UPDATE OF state ON runs FOR EACH ROW EXECUTE FUNCTION agent_runs_webhook_outbox();
CREATE TRIGGER webhook_artifact_created AFTER INSERT ON artifacts FOR EACH ROW EXECUTE FUNCTION agent_runs_webhook_outbox();
CREATE TRIGGER webhook_followup_received AFTER INSERT ON run_messages FOR EACH ROW EXECUTE FUNCTION agent_runs_webhook_outbox();
CREATE TRIGGER webhook_schedule_fired AFTER UPDATE OF run_id, error ON schedule_firings FOR EACH ROW EXECUTE FUNCTION agent_runs_webhook_outbox();
`;

/**
 * Whether some enabled subscription asks for one of the event types `types` (an SQL
 * expression of text, or NULL for none): a change nobody subscribed to writes no outbox
 * row, so the request path pays nothing for subscriptions to other events.
 */
const WANTED = (types: string) =>
  `EXISTS (SELECT 1 FROM webhook_subscriptions WHERE enabled = TRUE AND (${types
    .split('|')
    .map((type) => `event_types LIKE '%"' || ${type} || '"%'`)
    .join(' OR ')}))`;
/** The ending a state is also reported as (as `eventTypesOf` in the delivery worker). */
const ENDING = (state: string) =>
  `(CASE ${state} WHEN 'SUCCEEDED' THEN 'run.succeeded' WHEN 'FAILED' THEN 'run.failed' WHEN 'ERROR' THEN 'run.failed' WHEN 'BLOCKED' THEN 'run.failed' WHEN 'CANCELLED' THEN 'run.cancelled' END)`;
const FIRING = `(CASE WHEN NEW.run_id IS NOT NULL THEN 'schedule.fired' ELSE 'schedule.failed' END)`;
const WANTS = {
  created: WANTED(`'run.created'`),
  stateChanged: WANTED(`'run.state_changed'|${ENDING('NEW.state')}`),
  artifact: WANTED(`'run.artifact_created'`),
  followup: WANTED(`'run.followup_received'`),
  firing: WANTED(FIRING),
};

/** The triggers again, each writing only when an enabled subscription wants its event type. */
export const SQLITE_WEBHOOK_TRIGGERS_BY_TYPE = `
DROP TRIGGER webhook_run_created;
DROP TRIGGER webhook_run_state_changed;
DROP TRIGGER webhook_artifact_created;
DROP TRIGGER webhook_followup_received;
DROP TRIGGER webhook_schedule_fired;
CREATE TRIGGER webhook_run_created AFTER INSERT ON runs
WHEN ${WANTS.created}
BEGIN
  INSERT INTO webhook_outbox (kind, run_id, state, at) VALUES ('run.created', NEW.id, NEW.state, NEW.created_at);
END;
CREATE TRIGGER webhook_run_state_changed AFTER UPDATE OF state ON runs
WHEN NEW.state IS NOT OLD.state AND ${WANTS.stateChanged}
BEGIN
  INSERT INTO webhook_outbox (kind, run_id, state, previous_state, at) VALUES ('run.state_changed', NEW.id, NEW.state, OLD.state, NEW.updated_at);
END;
CREATE TRIGGER webhook_artifact_created AFTER INSERT ON artifacts
WHEN ${WANTS.artifact}
BEGIN
  INSERT INTO webhook_outbox (kind, run_id, subject_id, at) VALUES ('run.artifact_created', NEW.run_id, NEW.uid, NEW.created_at);
END;
CREATE TRIGGER webhook_followup_received AFTER INSERT ON run_messages
WHEN NEW.kind = 'followup' AND ${WANTS.followup}
BEGIN
  INSERT INTO webhook_outbox (kind, run_id, subject_id, at) VALUES ('run.followup_received', NEW.run_id, NEW.id, NEW.created_at);
END;
CREATE TRIGGER webhook_schedule_fired AFTER UPDATE OF run_id, error ON schedule_firings
WHEN (NEW.run_id IS NOT NULL OR NEW.error IS NOT NULL) AND OLD.run_id IS NULL AND OLD.error IS NULL AND ${WANTS.firing}
BEGIN
  INSERT INTO webhook_outbox (kind, run_id, subject_id, at) VALUES (${FIRING}, NEW.run_id, NEW.schedule_id, NEW.fired_at);
END;
`;

export const POSTGRES_WEBHOOK_TRIGGERS_BY_TYPE = `
CREATE OR REPLACE FUNCTION agent_runs_webhook_outbox() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_TABLE_NAME = 'runs' THEN
    IF TG_OP = 'INSERT' THEN
      IF ${WANTS.created} THEN
        INSERT INTO webhook_outbox (kind, run_id, state, at) VALUES ('run.created', NEW.id, NEW.state, NEW.created_at);
      END IF;
    ELSIF NEW.state IS DISTINCT FROM OLD.state AND ${WANTS.stateChanged} THEN
      INSERT INTO webhook_outbox (kind, run_id, state, previous_state, at) VALUES ('run.state_changed', NEW.id, NEW.state, OLD.state, NEW.updated_at);
    END IF;
  ELSIF TG_TABLE_NAME = 'artifacts' THEN
    IF ${WANTS.artifact} THEN
      INSERT INTO webhook_outbox (kind, run_id, subject_id, at) VALUES ('run.artifact_created', NEW.run_id, NEW.uid, NEW.created_at);
    END IF;
  ELSIF TG_TABLE_NAME = 'run_messages' THEN
    IF NEW.kind = 'followup' AND ${WANTS.followup} THEN
      INSERT INTO webhook_outbox (kind, run_id, subject_id, at) VALUES ('run.followup_received', NEW.run_id, NEW.id, NEW.created_at);
    END IF;
  ELSIF TG_TABLE_NAME = 'schedule_firings' THEN
    IF (NEW.run_id IS NOT NULL OR NEW.error IS NOT NULL) AND OLD.run_id IS NULL AND OLD.error IS NULL AND ${WANTS.firing} THEN
      INSERT INTO webhook_outbox (kind, run_id, subject_id, at) VALUES (${FIRING}, NEW.run_id, NEW.schedule_id, NEW.fired_at);
    END IF;
  END IF;
  RETURN NULL;
END
$fn$;
`;

/**
 * SQLite keeps each payload once, however many subscriptions an event goes to: a delivery
 * refers to its payload by `payload_seq` (its own `payload` is then empty; rows from before
 * keep theirs). A delivery row is written twice (made, recorded) and SQLite
 * rewrites a whole row on each: without its payload it stays small. PostgreSQL keeps a large
 * payload out of the row by itself (TOAST) and carries it over on an update, so it has no
 * such table. No index on `payload_seq`: each fan-out would write one more page for it, and
 * the statements that look for unreferenced payloads (pruning, a subscription deleted) read
 * the referenced ones in one pass.
 */
export const SQLITE_WEBHOOK_PAYLOADS = `
${createTable(PAYLOADS_TABLE, sqliteDialect)}${addColumns(DELIVERIES_TABLE, sqliteDialect, ['payload_seq'])}`;
