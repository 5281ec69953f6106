import type { ExecutionInput } from '../executors/execution-input.js';
import type { NewArtifact } from '../store/artifacts/artifact-store.js';
import type { RunRecord } from '../store/runs/run-record.js';
import type { WorkerAssignment, WorkerFinishRequest } from './worker-protocol.js';

/**
 * The one conversion between the executor's types and the wire (JSON): an assignment's run
 * record as it is (its fields are JSON already) and its execution's input with the
 * attachments' bytes in base64; a finish's artifacts with their bytes in base64. The server
 * calls `toWire`, the worker `fromWire` and `artifactsToWire`.
 */
export function toWire(claim: string, run: RunRecord, input: ExecutionInput, workspace?: WorkspaceSource, runToken?: string): WorkerAssignment {
  return {
    claim,
    ...(runToken ? { run_token: runToken } : {}),
    ...(workspace ? { workspace: { ran_on: workspace.ranOn, patches_base64: workspace.patches.map((p) => p.toString('base64')) } } : {}),
    run: { ...run } as WorkerAssignment['run'],
    input: {
      ...input,
      attachments: input.attachments.map((a) => ({ file_name: a.file_name, mime_type: a.mime_type, data_base64: a.data.toString('base64') })),
    },
  };
}

/** Where a follow-up's working directory was, and the patches that make it again (the assignment's `workspace`). */
export interface WorkspaceSource {
  ranOn: string;
  patches: Buffer[];
}

/** Thrown when an assignment does not hold what an execution starts from. */
export class WireFormatError extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An assignment as the executor takes it: the run, and its input with attachments decoded; throws WireFormatError naming what is missing. */
export function fromWire(assignment: WorkerAssignment): { claim: string; run: RunRecord; input: ExecutionInput; workspace?: WorkspaceSource; runToken?: string } {
  const run = assignment.run as Record<string, unknown>;
  for (const field of ['id', 'prompt', 'sessionId', 'createdAt'] as const) {
    if (typeof run[field] !== 'string') throw new WireFormatError(`run.${field} must be a string`);
  }
  if (!isObject(run.agentConfig)) throw new WireFormatError('run.agentConfig must be an object');
  if (!isObject(run.creator)) throw new WireFormatError('run.creator must be an object');
  const input = assignment.input as Record<string, unknown>;
  for (const field of ['followups', 'conversation', 'attachments'] as const) {
    if (!Array.isArray(input[field])) throw new WireFormatError(`input.${field} must be a list`);
  }
  if (!isObject(input.limits)) throw new WireFormatError('input.limits must be an object');
  const attachments = (input.attachments as unknown[]).map((a, i) => {
    if (!isObject(a) || typeof a.file_name !== 'string' || typeof a.mime_type !== 'string' || typeof a.data_base64 !== 'string') {
      throw new WireFormatError(`input.attachments[${i}] must hold file_name, mime_type and data_base64`);
    }
    return { file_name: a.file_name, mime_type: a.mime_type, data: Buffer.from(a.data_base64, 'base64') };
  });
  return {
    claim: assignment.claim,
    ...(assignment.run_token ? { runToken: assignment.run_token } : {}),
    // The run runs under the claim the server gave it, whatever `startedAt` the record says.
    run: { ...(run as unknown as RunRecord), startedAt: assignment.claim },
    input: { ...(input as unknown as ExecutionInput), attachments, usedBytes: typeof input.usedBytes === 'number' ? input.usedBytes : 0 },
    ...(assignment.workspace
      ? { workspace: { ranOn: assignment.workspace.ran_on, patches: assignment.workspace.patches_base64.map((p) => Buffer.from(p, 'base64')) } }
      : {}),
  };
}

/** An artifact as a finish carries it. */
export type WireArtifact = NonNullable<WorkerFinishRequest['artifacts']>[number];

export function artifactsToWire(artifacts: readonly NewArtifact[]): WireArtifact[] {
  return artifacts.map((a) => ({ type: a.type, data: a.data, ...(a.content ? { content_base64: a.content.toString('base64') } : {}) }));
}
