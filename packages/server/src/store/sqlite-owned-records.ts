import type Database from 'better-sqlite3';
import { ownedStatements, type OwnedRecords, type OwnedStatements, type OwnedTable } from './owned-records.js';
import { toOwnedPage, type OwnedPage, type OwnedPageQuery } from './owned-page.js';
import { sqliteDialect } from './sql-dialect.js';
import type { Row } from './table-description.js';

/** Owned records in the runs database, every statement prepared once. */
export class SqliteOwnedRecords<T> implements OwnedRecords<T> {
  private readonly statements: OwnedStatements<T>;
  private readonly prepared: Record<'insert' | 'replace' | 'byKey' | 'all' | 'page' | 'pageMine' | 'delete', Database.Statement>;

  constructor(
    protected readonly db: Database.Database,
    owned: OwnedTable<T>,
  ) {
    const s = (this.statements = ownedStatements(owned, sqliteDialect));
    this.prepared = {
      insert: db.prepare(s.insert.sql),
      replace: db.prepare(s.replace.sql),
      byKey: db.prepare(s.byKey),
      all: db.prepare(s.all),
      page: db.prepare(s.page),
      pageMine: db.prepare(s.pageMine),
      delete: db.prepare(s.delete),
    };
  }

  async insert(record: T): Promise<void> {
    this.prepared.insert.run(this.statements.insert.values(record));
  }

  async get(key: string): Promise<T | undefined> {
    const row = this.prepared.byKey.get(key) as Row | undefined;
    return row ? this.statements.read(row) : undefined;
  }

  async list(): Promise<T[]> {
    return (this.prepared.all.all() as Row[]).map(this.statements.read);
  }

  async page({ creatorUid, afterSeq, limit }: OwnedPageQuery): Promise<OwnedPage<T>> {
    // SQLite binds `?` in the order they appear: the creator comes before the limit.
    const rows = (
      creatorUid === undefined ? this.prepared.page.all(afterSeq, limit + 1) : this.prepared.pageMine.all(afterSeq, creatorUid, limit + 1)
    ) as (Row & { seq: number })[];
    return toOwnedPage(rows, limit, this.statements.read);
  }

  async replace(record: T): Promise<boolean> {
    return this.prepared.replace.run(this.statements.replace.values(record)).changes > 0;
  }

  async delete(key: string): Promise<boolean> {
    return this.prepared.delete.run(key).changes > 0;
  }
}
