import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { SharedSecrets } from './cluster.js';

/** Secrets in the database: the first server to ask makes one at random; every server reads that one. */
export class PostgresSharedSecrets implements SharedSecrets {
  constructor(private readonly pool: pg.Pool) {}

  async get(name: string): Promise<Buffer> {
    await this.pool.query('INSERT INTO shared_secrets (name, value) VALUES ($1, $2) ON CONFLICT DO NOTHING', [name, randomBytes(32)]);
    const { rows } = await this.pool.query<{ value: Buffer }>('SELECT value FROM shared_secrets WHERE name = $1', [name]);
    return rows[0]!.value;
  }
}
