import { z } from 'zod';
import { acceptedContent, CLIENT_CAPABILITIES_META_KEY, inputRequired, inputResponse, type ClientCapabilities, type McpServer, type ServerContext as RequestContext } from '@modelcontextprotocol/server';

/** Choices offered in one question; past this the assistant is pointed at the list tool. */
export const MAX_CHOICES = 50;

/** One question for the user: a form with one field. */
export interface Question {
  /** The tool argument the answer fills (`prompt`, `environment`). */
  field: string;
  message: string;
  /** A free text answer, or one of these (id and what the user sees). */
  choices?: Array<{ id: string; title: string }>;
}

/**
 * Whether the host can put a question to its user: on 2026-07-28 from the request's own
 * capabilities, on 2025-11-25 from initialize. Form elicitation is what we ask with.
 */
export function canAsk(server: McpServer, request: RequestContext): boolean {
  const envelope = request.mcpReq.envelope as Record<string, ClientCapabilities | undefined> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? server.server.getClientCapabilities();
  const elicitation = capabilities?.elicitation as { form?: unknown; url?: unknown } | undefined;
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
}

/** What the user answered to `field` in this round; undefined when not asked or not answered. */
export function answerTo(request: RequestContext, field: string): string | undefined {
  const content = acceptedContent(request.mcpReq.inputResponses, field, z.looseObject({ [field]: z.string().min(1) }));
  const value = (content as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'string' ? value.trim() || undefined : undefined;
}

/** Whether the user saw the question to `field` and declined or cancelled it. */
export function refused(request: RequestContext, field: string): boolean {
  const view = inputResponse(request.mcpReq.inputResponses, field);
  return view.kind === 'elicit' && view.action !== 'accept';
}

/** The input-required result asking every question at once (elicitation on 2025-11-25, by the SDK). */
export function ask(questions: readonly Question[]) {
  return inputRequired({
    inputRequests: Object.fromEntries(
      questions.map((q) => [
        q.field,
        inputRequired.elicit({
          message: q.message,
          requestedSchema: {
            type: 'object',
            properties: {
              [q.field]: q.choices
                ? { type: 'string', title: q.field, oneOf: q.choices.slice(0, MAX_CHOICES).map((c) => ({ const: c.id, title: c.title })) }
                : { type: 'string', title: q.field, minLength: 1 },
            },
            required: [q.field],
          },
        }),
      ]),
    ),
  });
}
