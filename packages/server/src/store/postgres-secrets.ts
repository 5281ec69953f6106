import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { SharedSecrets } from './cluster.js';
import { INSERT_SECRET, readSecret, SELECT_SECRET } from './secret-table.js';
import type { Row } from './table-description.js';

/** Secrets in the database: the first server to ask makes one at random; every server reads that one. */
export class PostgresSharedSecrets implements SharedSecrets {
  constructor(private readonly pool: pg.Pool) {}

  async get(name: string): Promise<Buffer> {
    await this.pool.query(INSERT_SECRET.sql, INSERT_SECRET.values({ name, value: randomBytes(32) }));
    const { rows } = await this.pool.query<Row>(SELECT_SECRET, [name]);
    return readSecret(rows[0]!).value;
  }
}
