import type { NewArtifact } from '../store/artifacts/artifact-store.js';
import type { SecretMask } from '../domain/secret-mask.js';
import type { Execution, ExecutionContext, ExecutionOutcome, RunExecutor } from './run-executor.js';
import { WrappingExecutor } from './wrapping-executor.js';

/** An artifact's descriptive fields masked (names, descriptions, URLs, PLAN text); file bytes are the agent's own. */
function maskArtifact(mask: SecretMask, artifact: NewArtifact): NewArtifact {
  // Field by field, not over its JSON: a secret's JSON text may be a number or a key there, and masking it would break the record.
  return { ...artifact, data: mask.maskStrings(artifact.data) };
}

/**
 * Masks the configuration's named secrets and the execution's run token in everything an execution hands back (output,
 * status message, artifact descriptions) before it is stored or streamed, so the event
 * stream, stored output, transcript, conversation, session page and every client reading
 * them (MCP, the Action) only ever see `***`.
 */
export class MaskedExecutor extends WrappingExecutor {
  constructor(
    inner: RunExecutor,
    private readonly mask: SecretMask,
  ) {
    super(inner);
  }

  start(context: ExecutionContext): Execution {
    // The run's own token is a secret of this execution alone.
    const mask = this.mask.and(context.agentApi ? [context.agentApi.token] : []);
    if (mask.empty) return this.inner.start(context);
    const streams = new Map<string, ReturnType<SecretMask['stream']>>();
    const onOutput = (text: string, stream?: 'stdout' | 'stderr') => {
      let masker = streams.get(stream ?? '');
      if (!masker) streams.set(stream ?? '', (masker = mask.stream()));
      const out = masker.push(text);
      if (out) context.onOutput(out, stream);
    };
    const execution = this.inner.start({ ...context, onOutput });
    const done = execution.done.then((outcome): ExecutionOutcome => {
      for (const [stream, masker] of streams) {
        const rest = masker.flush();
        if (rest) context.onOutput(rest, stream === '' ? undefined : (stream as 'stdout' | 'stderr'));
      }
      const message = outcome.statusMessage;
      return {
        ...outcome,
        ...(message ? { statusMessage: { ...message, message: mask.mask(message.message) } } : {}),
        ...(outcome.artifacts ? { artifacts: outcome.artifacts.map((a) => maskArtifact(mask, a)) } : {}),
      };
    });
    return { ...execution, done };
  }
}
