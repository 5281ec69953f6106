import type pg from 'pg';
import { ownedStatements, type OwnedRecords, type OwnedStatements, type OwnedTable } from './owned-records.js';
import { toOwnedPage, type OwnedPage, type OwnedPageQuery } from './owned-page.js';
import { postgresDialect } from './sql-dialect.js';
import type { Row } from './table-description.js';

/** Owned records in PostgreSQL. */
export class PostgresOwnedRecords<T> implements OwnedRecords<T> {
  private readonly statements: OwnedStatements<T>;

  constructor(
    protected readonly pool: pg.Pool,
    owned: OwnedTable<T>,
  ) {
    this.statements = ownedStatements(owned, postgresDialect);
  }

  async insert(record: T): Promise<void> {
    await this.pool.query(this.statements.insert.sql, this.statements.insert.values(record));
  }

  async get(key: string): Promise<T | undefined> {
    const { rows } = await this.pool.query<Row>(this.statements.byKey, [key]);
    return rows[0] ? this.statements.read(rows[0]) : undefined;
  }

  async list(): Promise<T[]> {
    const { rows } = await this.pool.query<Row>(this.statements.all);
    return rows.map(this.statements.read);
  }

  async page({ creatorUid, afterSeq, limit }: OwnedPageQuery): Promise<OwnedPage<T>> {
    const { rows } = await this.pool.query<Row & { seq: string }>(
      creatorUid === undefined ? this.statements.page : this.statements.pageMine,
      creatorUid === undefined ? [afterSeq, limit + 1] : [afterSeq, limit + 1, creatorUid],
    );
    return toOwnedPage(rows, limit, this.statements.read);
  }

  async replace(record: T): Promise<boolean> {
    const result = await this.pool.query(this.statements.replace.sql, this.statements.replace.values(record));
    return (result.rowCount ?? 0) > 0;
  }

  async delete(key: string): Promise<boolean> {
    const result = await this.pool.query(this.statements.delete, [key]);
    return (result.rowCount ?? 0) > 0;
  }
}
