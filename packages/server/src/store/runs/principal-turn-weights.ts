import type { TableDescription } from '../table-description.js';

/**
 * The `principal_turn_weights` table: the `fair_turns.weights` of the configuration file,
 * where the turn SQL (run-turns.ts) reads them, a PostgreSQL trigger included, which cannot
 * read the file. The server replaces the rows at start; a principal without a row has weight 1.
 * Servers sharing a database should share the weights: the last one started wins.
 */
export const PRINCIPAL_TURN_WEIGHTS_TABLE: TableDescription<never, never> = {
  name: 'principal_turn_weights',
  withoutRowid: true,
  columns: [
    { name: 'creator_uid', type: 'text', notNull: true },
    { name: 'weight', type: 'int32', notNull: true },
  ],
  keys: [{ kind: 'primary', on: 'creator_uid' }],
};

/** The weights as rows, weight 1 left out (it is every other principal's). */
export function weightRows(weights: Readonly<Record<string, number>> | undefined): [string, number][] {
  return Object.entries(weights ?? {}).filter(([, weight]) => weight !== 1);
}
