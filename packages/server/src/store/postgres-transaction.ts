import type pg from 'pg';

/**
 * Runs `work` in a transaction on one connection of the pool: committed when it resolves,
 * rolled back when it throws. A connection whose rollback failed is discarded, not reused.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

/** A bigint column (pg answers it as a string) as a number; the store's counts stay far below 2^53. */
export const toNumber = (value: string | number): number => (typeof value === 'number' ? value : Number(value));
