import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * better-sqlite3 13 (Node-API) on Node 22 and later, 12 on Node 20. Version 12 wraps its
 * objects in node::ObjectWrap, whose destructor since Node 24.19 aborts the process
 * ("Assertion failed: (env) != nullptr") when the garbage collector finalizes a statement
 * outside JavaScript; version 13 has no such destructor but does not run on Node 20. Both
 * have the same API, described by @types/better-sqlite3. Both are installed on every Node
 * (npm warns about 13's `engines` on Node 20; an optional dependency would be left out
 * there, and a tree installed on Node 20 must still run on Node 24); without 13, 12 is
 * used on every Node.
 */
const require = createRequire(import.meta.url);
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

let driver: { module: typeof BetterSqlite3; path: string } | undefined;

function loadDriver(): { module: typeof BetterSqlite3; path: string } {
  if (NODE_MAJOR >= 22) {
    try {
      const path = require.resolve('better-sqlite3-napi');
      return { module: require(path) as typeof BetterSqlite3, path };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    }
  }
  const path = require.resolve('better-sqlite3');
  return { module: require(path) as typeof BetterSqlite3, path };
}

/** Opens (or creates) a SQLite database file, or `:memory:`. */
export function openDatabase(filename: string, options?: BetterSqlite3.Options): BetterSqlite3.Database {
  driver ??= loadDriver();
  return new driver.module(filename, options);
}

/** Where the driver `openDatabase` uses is installed, for a thread that must open the same. */
export function driverPath(): string {
  driver ??= loadDriver();
  return driver.path;
}
