import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../../../../test/support/postgres.js';
import { DESCRIBED_TABLES } from '../../src/store/added-columns.js';
import { migratePostgres, POSTGRES_MIGRATIONS } from '../../src/store/postgres-migrations.js';
import { openDatabase } from '../../src/store/sqlite-driver.js';
import { migrateSqlite, SQLITE_MIGRATIONS } from '../../src/store/sqlite-migrations.js';
import { postgresDialect, sqliteDialect, type SqlDialect } from '../../src/store/sql-dialect.js';
import { inDialect, type TableDescription } from '../../src/store/table-description.js';
import { createTable } from '../../src/store/table-schema.js';

/** A table's shape, one line per column and index, as the description says and as a database has it. */
interface Shape {
  columns: string[];
  indexes: string[];
  /** Keys that are not a column's identity (`primary key (a, b)`, `unique (a, b)`), and SQLite's `without rowid`. */
  keys: string[];
}

function described(table: TableDescription<never, never>, dialect: SqlDialect): Shape {
  const tableKeys = (table.keys ?? []).filter((k) => inDialect(k, dialect));
  const keyed = new Set([
    ...table.columns.filter((c) => c.primaryKey).map((c) => c.name),
    ...tableKeys.filter((k) => k.kind === 'primary').flatMap((k) => k.on.split(', ')),
  ]);
  const keys = [
    ...table.columns.filter((c) => c.primaryKey && inDialect(c, dialect)).map((c) => `primary key (${c.name})`),
    ...tableKeys.map((k) => `${k.kind === 'primary' ? 'primary key' : 'unique'} (${k.on})`),
    ...(table.withoutRowid && dialect === sqliteDialect ? ['without rowid'] : []),
  ];
  const columns = table.columns
    .filter((c) => inDialect(c, dialect))
    .map((c) => {
      if (c.identity) return `${c.name} identity${dialect === sqliteDialect ? ` ${c.identity}` : ''}`;
      // A primary key makes its columns NOT NULL, but on SQLite only in a table without rowid.
      const notNull = c.notNull || (keyed.has(c.name) && (dialect === postgresDialect || table.withoutRowid));
      const parts = [c.name, dialect.types[c.type], c.byteOrder && dialect === postgresDialect && 'byte order', notNull && 'not null', c.unique && 'unique'];
      return [...parts, c.default !== undefined && `default ${c.default}`].filter(Boolean).join(' ');
    });
  const indexes = (table.indexes ?? [])
    .filter((i) => inDialect(i, dialect))
    .map((i) => `${i.name} (${i.on})${i.unique ? ' unique' : ''}${i.where ? ' partial' : ''}`);
  return { columns, indexes, keys };
}

function sqliteShape(db: ReturnType<typeof openDatabase>, table: string): Shape {
  const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as { sql: string }).sql;
  const indexes = db.prepare('SELECT name, "unique", origin, partial FROM pragma_index_list(?) ORDER BY seq DESC').all(table) as {
    name: string;
    unique: number;
    origin: string;
    partial: number;
  }[];
  const on = (index: string) => (db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').all(index) as { name: string }[]).map((c) => c.name);
  const unique = new Set(indexes.filter((i) => i.origin === 'u').flatMap((i) => (on(i.name).length === 1 ? on(i.name) : [])));
  const info = db.prepare('SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid').all(table) as {
    name: string;
    type: string;
    notnull: number;
    dflt_value: string | null;
    pk: number;
  }[];
  const primary = info.filter((c) => c.pk).sort((a, b) => a.pk - b.pk);
  // A lone INTEGER primary key is the rowid, a column's identity; any other key is the table's.
  const identity = primary.length === 1 && primary[0]!.type === 'INTEGER' ? primary[0]!.name : undefined;
  const keys = [
    ...(primary.length && !identity ? [`primary key (${primary.map((c) => c.name).join(', ')})`] : []),
    ...indexes.filter((i) => i.origin === 'u' && on(i.name).length > 1).map((i) => `unique (${on(i.name).join(', ')})`),
    ...(/\)\s*WITHOUT ROWID\s*$/i.test(sql) ? ['without rowid'] : []),
  ];
  const columns = info.map((c) => {
    if (c.name === identity) return `${c.name} identity ${/AUTOINCREMENT/i.test(sql) ? 'increasing' : 'rowid'}`;
    const parts = [c.name, c.type, c.notnull && 'not null', unique.has(c.name) && 'unique', c.dflt_value !== null && `default ${c.dflt_value}`];
    return parts.filter(Boolean).join(' ');
  });
  return {
    columns,
    keys,
    indexes: indexes.filter((i) => i.origin === 'c').map((i) => `${i.name} (${on(i.name).join(', ')})${i.unique ? ' unique' : ''}${i.partial ? ' partial' : ''}`),
  };
}

async function postgresShape(client: pg.Client, table: string): Promise<Shape> {
  const columns = await client.query<{ name: string; type: string; not_null: boolean; byte_order: boolean; identity: boolean; dflt: string | null; is_unique: boolean }>(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null, co.collname = 'C' AS byte_order,
       a.attidentity <> '' AS identity, pg_get_expr(d.adbin, d.adrelid) AS dflt,
       EXISTS (SELECT 1 FROM pg_constraint u WHERE u.conrelid = a.attrelid AND u.contype = 'u' AND u.conkey = ARRAY[a.attnum]) AS is_unique
     FROM pg_attribute a LEFT JOIN pg_collation co ON co.oid = a.attcollation LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
    [table],
  );
  const types: Record<string, string> = { 'timestamp with time zone': 'timestamptz' };
  const indexes = await client.query<{ name: string; on: string; is_unique: boolean; partial: boolean }>(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS on, i.indisunique AS is_unique, i.indpred IS NOT NULL AS partial
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid) ORDER BY c.oid`,
    [table],
  );
  const keys = await client.query<{ kind: string; on: string }>(
    `SELECT k.contype AS kind, string_agg(a.attname, ', ' ORDER BY c.i) AS on
     FROM pg_constraint k CROSS JOIN LATERAL unnest(k.conkey) WITH ORDINALITY AS c(attnum, i)
       JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = c.attnum
     WHERE k.conrelid = $1::regclass AND (k.contype = 'p' OR (k.contype = 'u' AND cardinality(k.conkey) > 1))
       AND NOT (k.contype = 'p' AND cardinality(k.conkey) = 1 AND a.attidentity <> '')
     GROUP BY k.oid, k.contype ORDER BY k.contype, k.oid`,
    [table],
  );
  return {
    keys: keys.rows.map((k) => `${k.kind === 'p' ? 'primary key' : 'unique'} (${k.on})`),
    columns: columns.rows.map((c) => {
      if (c.identity) return `${c.name} identity`;
      const dflt = c.dflt?.replace(/::\w+$/, '');
      const parts = [c.name, types[c.type] ?? c.type, c.byte_order && 'byte order', c.not_null && 'not null', c.is_unique && 'unique', dflt && `default ${dflt}`];
      return parts.filter(Boolean).join(' ');
    }),
    indexes: indexes.rows.map((i) => `${i.name} (${/\((.*)\)/.exec(i.on.replace(/ WHERE .*$/, ''))![1]})${i.is_unique ? ' unique' : ''}${i.partial ? ' partial' : ''}`),
  };
}

describe('the described tables as SQLite makes them', () => {
  const db = openDatabase(':memory:');
  migrateSqlite(db);
  it.each(DESCRIBED_TABLES.filter((t) => inDialect(t, sqliteDialect)).map((t) => [t.name, t] as const))(
    '%s has every described column and index, in order, and no other',
    (name, table) => {
      expect(sqliteShape(db, name)).toEqual(described(table, sqliteDialect));
    },
  );
});

describe.skipIf(!postgresAdminUrl)('the described tables as PostgreSQL makes them', () => {
  let database: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await migratePostgres(client);
  }, 30_000);
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });
  it.each(DESCRIBED_TABLES.filter((t) => inDialect(t, postgresDialect)).map((t) => [t.name, t] as const))(
    '%s has every described column and index, in order, and no other',
    async (name, table) => {
      expect(await postgresShape(client, name)).toEqual(described(table, postgresDialect));
    },
  );
});

/**
 * Each shipped step's SQL (spacing aside) as it shipped, hashed: databases made by earlier
 * versions have run it, so a description may change it only by a column marked `added`
 * (a step of its own). A new step appends its hash here once it ships.
 */
const SHIPPED = {
  sqlite: ['d2358f47df95253d', '88837bd6e9cde83e', '9ce4b5fe0fcc7995', '3b6f3c37d7c5608c', 'cac0139a55cefc48', '109dc294fd6f7a35', '336b1b62b593a098', 'e43d05a9d0aff3a6', 'c058bc4a9d6df66f', '728f5a562ccb716c', '157f1751871e5296', '9591a7e5a007ffaf', 'cf32b07ca21fbd88', 'b1b0efae5bd8ac75', 'db240ef1ffa3d2b4', '09570b1c92049f52', '97ecb488c72b1027', '4fd55391df9bbcfd', 'fd90489fba4a7a5e'],
  postgres: ['a57571926be7792d', '9290789fc83d9e86', '6319d72aed76334b', 'e604586166790df9', '770389f9f4e5bdfd', 'd92c255ebfe38b85', 'e6a10b5388c53663', '59a3b78636abd795', '570596bfe5332f44', '3a450e38c43004d2', 'fec61f58da90f64e', '38377283485985a4', 'e5b70c4ae82ad5b1', 'f2accf2d99d83a60', '1985b14539e48f07', '8853999114bcde79'],
};

function stepHash(sql: string): string {
  const spaced = sql.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').replace(/ ;/g, ';').replace(/;$/, '').trim();
  return createHash('sha256').update(spaced).digest('hex').slice(0, 16);
}

describe('the migration steps made from descriptions', () => {
  it.each([
    ['SQLite', SQLITE_MIGRATIONS, SHIPPED.sqlite],
    ['PostgreSQL', POSTGRES_MIGRATIONS, SHIPPED.postgres],
  ] as const)('stay on %s as they shipped', (_name, steps, shipped) => {
    expect(steps.slice(0, shipped.length).map((step) => stepHash(step.sql))).toEqual(shipped);
  });
});

describe('a table made from its description', () => {
  const table: TableDescription<never, never> = {
    name: 't',
    columns: [
      { name: 'seq', type: 'integer', identity: 'increasing' },
      { name: 'id', type: 'text', notNull: true, unique: true },
      { name: 'at', type: 'text', notNull: true, byteOrder: true, default: "''" },
      { name: 'later', type: 'int32' },
      { name: 'lease', type: 'moment', only: 'postgres' },
      { name: 'added', type: 'boolean', added: 1 },
    ],
    indexes: [
      { name: 't_by_at', on: 'at, seq' },
      { name: 't_on', on: 'id', where: { sqlite: 'later = 1', postgres: 'later = 2' }, unique: true },
    ],
  };

  it('has the columns not marked added nor named later, in each dialect’s words', () => {
    expect(createTable(table, sqliteDialect, { later: ['later', 't_by_at'], ifNotExists: true })).toBe(
      `CREATE TABLE IF NOT EXISTS t (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  at TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX IF NOT EXISTS t_on ON t(id) WHERE later = 1;
`,
    );
    expect(createTable(table, postgresDialect)).toBe(
      `CREATE TABLE t (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text NOT NULL UNIQUE,
  at text COLLATE "C" NOT NULL DEFAULT '',
  later integer,
  lease timestamptz
);
CREATE INDEX t_by_at ON t(at, seq);
CREATE UNIQUE INDEX t_on ON t(id) WHERE later = 2;
`,
    );
  });

  it('refuses a later column or index the description lacks', () => {
    expect(() => createTable(table, sqliteDialect, { later: ['missing'] })).toThrow(/t has no column or index missing/);
  });
});
