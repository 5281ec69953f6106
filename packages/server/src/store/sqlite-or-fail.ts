/**
 * A one-row INSERT or UPDATE as `… OR FAIL`: with the default `OR ABORT`, an AFTER trigger on
 * the table (the webhook outbox's) makes SQLite copy every page the write touches into a
 * statement journal, in a temporary file, in case a constraint stops the statement halfway;
 * that triples the cost of a create. A one-row write cannot stop halfway: SQLite checks the
 * row's constraints before writing it, the outbox triggers' inserts have none that can fail,
 * and other errors (a full disk) still roll back the transaction.
 */
export function sqliteOrFail(sql: string): string {
  if (!/^(INSERT|UPDATE) /.test(sql)) throw new Error(`Not an INSERT or UPDATE: ${sql.slice(0, 40)}`);
  return sql.replace(/^(INSERT|UPDATE) /, '$1 OR FAIL ');
}
