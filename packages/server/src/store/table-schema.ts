import type { SqlDialect } from './sql-dialect.js';
import { inDialect, type Column, type TableDescription } from './table-description.js';

/** Any table, for what only its schema matters to. */
type AnyTable = TableDescription<never, never>;

/** A column's definition, as `CREATE TABLE` and `ADD COLUMN` write it. */
export function columnDefinition(column: Column<never, never>, dialect: SqlDialect): string {
  if (column.identity) return `${column.name} ${dialect.identity[column.identity]}`;
  return [
    `${column.name} ${dialect.types[column.type]}${column.byteOrder ? dialect.byteOrder : ''}`,
    column.primaryKey && 'PRIMARY KEY',
    column.notNull && 'NOT NULL',
    column.unique && 'UNIQUE',
    column.default !== undefined && `DEFAULT ${column.default}`,
  ]
    .filter(Boolean)
    .join(' ');
}

export interface CreateTableOptions {
  /** Columns and indexes that later steps of the dialect's history add (by name): the table as its first step made it. */
  later?: readonly string[];
  /** For a step that adopts a file made before steps were numbered. */
  ifNotExists?: boolean;
}

/**
 * The table as its first migration step makes it, with its indexes: every column of the
 * dialect's but those marked `added` (added-columns.ts adds them) and those named `later`.
 */
export function createTable(table: AnyTable, dialect: SqlDialect, options: CreateTableOptions = {}): string {
  const later = new Set(options.later);
  for (const name of later) described(table, name);
  const columns = table.columns.filter((c) => c.added === undefined && !later.has(c.name) && inDialect(c, dialect));
  const indexes = (table.indexes ?? []).filter((i) => !later.has(i.name) && inDialect(i, dialect)).map((i) => i.name);
  const keys = (table.keys ?? []).filter((k) => inDialect(k, dialect)).map((k) => `${k.kind === 'primary' ? 'PRIMARY KEY' : 'UNIQUE'} (${k.on})`);
  const definitions = [...columns.map((c) => columnDefinition(c, dialect)), ...keys].map((d) => `  ${d}`).join(',\n');
  const rowid = table.withoutRowid && dialect.name === 'sqlite' ? ' WITHOUT ROWID' : '';
  return `CREATE TABLE ${options.ifNotExists ? 'IF NOT EXISTS ' : ''}${table.name} (\n${definitions}\n)${rowid};\n${createIndexes(table, dialect, indexes, options.ifNotExists)}`;
}

/** `ADD COLUMN` of the columns named, for a step that adds them (written before columns were marked `added`). */
export function addColumns(table: AnyTable, dialect: SqlDialect, names: readonly string[]): string {
  return names.map((name) => `ALTER TABLE ${table.name} ADD COLUMN ${columnDefinition(column(table, name), dialect)};\n`).join('');
}

/** The indexes named, of those in the dialect's database. */
export function createIndexes(table: AnyTable, dialect: SqlDialect, names: readonly string[], ifNotExists = false): string {
  return names
    .map((name) => index(table, name))
    .filter((i) => inDialect(i, dialect))
    .map((i) => {
      const where = typeof i.where === 'string' ? i.where : i.where?.[dialect.name];
      const head = `CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX ${ifNotExists ? 'IF NOT EXISTS ' : ''}${i.name}`;
      return `${head} ON ${table.name}(${i.on})${where ? ` WHERE ${where}` : ''};\n`;
    })
    .join('');
}

function column(table: AnyTable, name: string): Column<never, never> {
  const found = table.columns.find((c) => c.name === name);
  if (!found) throw new Error(`${table.name} has no column ${name} described.`);
  return found;
}

function index(table: AnyTable, name: string) {
  const found = table.indexes?.find((i) => i.name === name);
  if (!found) throw new Error(`${table.name} has no index ${name} described.`);
  return found;
}

function described(table: AnyTable, name: string): void {
  if (!table.columns.some((c) => c.name === name) && !table.indexes?.some((i) => i.name === name)) {
    throw new Error(`${table.name} has no column or index ${name} described.`);
  }
}
