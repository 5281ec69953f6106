import { z } from 'zod';
import { ConversationResponseSchema, visibleText, type ConversationResponse } from '@agent-runs/core';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { TOOL_FIELD_CHARS, truncateText } from '../results/bounded-run.js';
import { runIdArgument } from './run-id-argument.js';
import { toolErrorResult } from './tool-error.js';

/** Longest text of one message in the text rendering; the structured result has it whole. */
const MAX_MESSAGE_CHARS = 4_000;

/** `user: ...` / `assistant: ...` lines, one step (execution) after another. */
export function conversationText(conversation: ConversationResponse): string {
  const lines: string[] = [];
  conversation.steps.forEach((step, i) => {
    lines.push(`Step ${i + 1}:`);
    for (const message of step.messages) {
      for (const block of message.content) {
        const text = 'text' in block && typeof block.text === 'string' ? block.text : `[${block.type}]`;
        const cut = text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
        // Control characters escaped, one line per line of the message (a host may print it on a terminal).
        lines.push(...cut.split('\n').map((line, i) => `${i === 0 ? `  ${visibleText(message.role)}: ` : '    '}${visibleText(line)}`));
      }
    }
  });
  return lines.length ? lines.join('\n') : 'The conversation is empty.';
}

/** Each text block cut to TOOL_FIELD_CHARS, so a long conversation stays one reasonable message. */
function boundConversation(conversation: ConversationResponse, runId: string): ConversationResponse {
  const pointer = `the run's transcript (agent-runs conversation ${runId} --json)`;
  return {
    ...conversation,
    steps: conversation.steps.map((step) => ({
      ...step,
      messages: step.messages.map((message) => ({
        ...message,
        content: message.content.map((block) =>
          'text' in block && typeof block.text === 'string' ? { ...block, text: truncateText(block.text, TOOL_FIELD_CHARS, pointer) } : block,
        ),
      })),
    })),
  };
}

export function registerGetRunConversationTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'get_run_conversation',
    {
      title: 'Read a cloud agent run’s conversation',
      description:
        'The messages of a run in order: the prompt, each follow-up, and the agent’s answer to each, grouped in ' +
        'steps (one per execution). Use it to see what was already asked before sending follow_up_run.',
      inputSchema: z.strictObject({ run_id: runIdArgument }),
      outputSchema: ConversationResponseSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ run_id }) => {
      try {
        const conversation = boundConversation(await ctx.client.runs.conversation(run_id), run_id);
        return { structuredContent: conversation, content: [{ type: 'text', text: conversationText(conversation) }] };
      } catch (error) {
        return toolErrorResult(error, { tool: 'get_run_conversation', doing: `read the conversation of run ${run_id}`, names: 'run' }, ctx.client);
      }
    },
  );
}
