import type pg from 'pg';
import type { CatalogActivity, LastRun } from './catalog-activity.js';

/** When environments and skills were last used, read from the runs table. */
export class PostgresCatalogActivity implements CatalogActivity {
  constructor(private readonly pool: pg.Pool) {}

  async lastRunInEnvironment(environmentId: string, creatorUid?: string): Promise<LastRun | undefined> {
    const byCreator = creatorUid === undefined ? '' : ' AND creator_uid = $2';
    const { rows } = await this.pool.query<{
      id: string;
      title: string;
      state: string;
      created_at: string;
      updated_at: string;
      started_at: string | null;
    }>(
      `SELECT id, title, state, created_at, updated_at, started_at FROM runs
       WHERE environment_id = $1${byCreator} ORDER BY created_at DESC LIMIT 1`,
      creatorUid === undefined ? [environmentId] : [environmentId, creatorUid],
    );
    const row = rows[0];
    return row
      ? { id: row.id, title: row.title, state: row.state, createdAt: row.created_at, updatedAt: row.updated_at, startedAt: row.started_at }
      : undefined;
  }

  async lastRunOfSkills(creatorUid?: string): Promise<Map<string, string>> {
    const byCreator = creatorUid === undefined ? '' : ' AND creator_uid = $1';
    const { rows } = await this.pool.query<{ skill_id: string; at: string }>(
      `SELECT skill_id, MAX(created_at) AS at FROM runs WHERE skill_id IS NOT NULL${byCreator} GROUP BY skill_id`,
      creatorUid === undefined ? [] : [creatorUid],
    );
    return new Map(rows.map((r) => [r.skill_id, r.at]));
  }
}
