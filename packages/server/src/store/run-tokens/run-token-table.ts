import type { StoredRunToken } from '../../domain/run-tokens.js';
import type { TableDescription } from '../table-description.js';

/**
 * The `run_tokens` table: the SHA-256 (hex) of each run token in use, with its run and that
 * run's creator, so every server of a shared database honours a token another one minted.
 * Never the token itself. A run has at most one row (its execution's token).
 */
export const RUN_TOKENS_TABLE: TableDescription<StoredRunToken, StoredRunToken> = {
  name: 'run_tokens',
  columns: [
    { name: 'digest', type: 'text', write: (t) => t.digest, read: 'digest', notNull: true, unique: true },
    { name: 'run_id', type: 'text', write: (t) => t.runId, read: 'runId', notNull: true },
    { name: 'creator', type: 'json', write: (t) => t.creator, read: 'creator', notNull: true },
    { name: 'created_at', type: 'text', write: (t) => t.createdAt, read: 'createdAt', notNull: true },
  ],
  indexes: [{ name: 'run_tokens_by_run', on: 'run_id' }],
};
