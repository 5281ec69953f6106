import type Database from 'better-sqlite3';
import type { CatalogActivity, LastRun } from './catalog-activity.js';

/** When environments and skills were last used, read from the runs table (indexes of migration 6). */
export class SqliteCatalogActivity implements CatalogActivity {
  constructor(private readonly db: Database.Database) {}

  async lastRunInEnvironment(environmentId: string, creatorUid?: string): Promise<LastRun | undefined> {
    const byCreator = creatorUid === undefined ? '' : ' AND creator_uid = ?';
    const row = this.db
      .prepare(
        `SELECT id, title, state, created_at, updated_at, started_at FROM runs
         WHERE environment_id = ?${byCreator} ORDER BY created_at DESC LIMIT 1`,
      )
      .get(environmentId, ...(creatorUid === undefined ? [] : [creatorUid])) as
      | { id: string; title: string; state: string; created_at: string; updated_at: string; started_at: string | null }
      | undefined;
    return row
      ? { id: row.id, title: row.title, state: row.state, createdAt: row.created_at, updatedAt: row.updated_at, startedAt: row.started_at }
      : undefined;
  }

  /** Skill variant id → when a run last started from it. */
  async lastRunOfSkills(creatorUid?: string): Promise<Map<string, string>> {
    const byCreator = creatorUid === undefined ? '' : ' AND creator_uid = ?';
    const rows = this.db
      .prepare(`SELECT skill_id, MAX(created_at) AS at FROM runs WHERE skill_id IS NOT NULL${byCreator} GROUP BY skill_id`)
      .all(...(creatorUid === undefined ? [] : [creatorUid])) as { skill_id: string; at: string }[];
    return new Map(rows.map((r) => [r.skill_id, r.at]));
  }
}
