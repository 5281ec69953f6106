import type { ExecutionInput } from '../executors/execution-input.js';
import type { RunRecord } from '../store/runs/run-record.js';
import type { WorkerAssignment } from './worker-protocol.js';

/**
 * The one conversion of an assignment between the server's types and the wire (JSON): the
 * run record as it is (its fields are JSON already), the execution's input with its
 * attachments' bytes in base64. The server calls `toWire`, the worker `fromWire`.
 */
export function toWire(claim: string, run: RunRecord, input: ExecutionInput): WorkerAssignment {
  return {
    claim,
    run: { ...run } as WorkerAssignment['run'],
    input: {
      ...input,
      attachments: input.attachments.map((a) => ({ file_name: a.file_name, mime_type: a.mime_type, data_base64: a.data.toString('base64') })),
    },
  };
}

/** An assignment as the executor takes it: the run, and its input with attachments decoded. */
export function fromWire(assignment: WorkerAssignment): { claim: string; run: RunRecord; input: ExecutionInput } {
  const input = assignment.input as unknown as Omit<ExecutionInput, 'attachments'> & {
    attachments: { file_name: string; mime_type: string; data_base64: string }[];
  };
  return {
    claim: assignment.claim,
    run: assignment.run as unknown as RunRecord,
    input: {
      ...input,
      attachments: input.attachments.map((a) => ({ file_name: a.file_name, mime_type: a.mime_type, data: Buffer.from(a.data_base64, 'base64') })),
    },
  };
}
