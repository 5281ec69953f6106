import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * better-sqlite3 13 (Node-API) on Node 22 and later, 12 on Node 20. Version 12 wraps its
 * objects in node::ObjectWrap, whose destructor since Node 24.19 aborts the process
 * ("Assertion failed: (env) != nullptr") when the garbage collector finalizes a statement
 * outside JavaScript; version 13 has no such destructor but does not run on Node 20. Both
 * have the same API, described by @types/better-sqlite3.
 */
const require = createRequire(import.meta.url);
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
export const SQLITE_DRIVER = NODE_MAJOR >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';

let driver: typeof BetterSqlite3 | undefined;

/** Opens (or creates) a SQLite database file, or `:memory:`. */
export function openDatabase(filename: string, options?: BetterSqlite3.Options): BetterSqlite3.Database {
  driver ??= require(SQLITE_DRIVER) as typeof BetterSqlite3;
  return new driver(filename, options);
}
