import { visibleText, type ConversationContentBlock } from '@agent-runs/core';
import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { paintFor } from '../render/colors.js';
import { writeJson } from '../render/json-output.js';
import { runIdArgument } from './run-id-argument.js';

export const conversationCommand: Command = {
  name: 'conversation',
  summary: 'Show a run’s prompt, follow-ups and answers',
  usage: '<run-id> [flags]',
  description: 'Show a run’s conversation, one step per execution: what was asked and what the agent answered.',
  positionals: true,
  usesApi: true,
  flags: {
    json: { type: 'boolean', description: 'Print the conversation as the API returns it, as JSON' },
  },
  examples: ['$0 conversation 6f1c2a9e-…'],
  async run(flags, ctx) {
    const conversation = await ctx.client().runs.conversation(runIdArgument(flags));
    if (flags.bool('json')) {
      writeJson(ctx.io.stdout, conversation);
      return EXIT.OK;
    }
    const paint = paintFor(ctx.io.stdout, ctx.io.env);
    const lines: string[] = [];
    conversation.steps.forEach((step, i) => {
      lines.push(paint.bold(`Step ${i + 1}`));
      for (const message of step.messages) {
        for (const block of message.content) {
          const text = blockText(block);
          // Run text is hostile in a terminal: control characters are shown, not sent. Line breaks stay.
          const shown = text.split('\n').map((line) => visibleText(line)).join('\n    ');
          lines.push(`  ${paint.dim(`${visibleText(message.role)}:`)} ${shown}`);
        }
      }
    });
    ctx.io.stdout.write(lines.length ? `${lines.join('\n')}\n` : 'The conversation is empty.\n');
    return EXIT.OK;
  },
};

/** A block as one text: its text, a tool call's readable line, what the call gave back; else its type. */
function blockText(block: ConversationContentBlock): string {
  const b = block as Record<string, unknown>;
  if (typeof b['text'] === 'string') return b['text'];
  const input = b['input'] as Record<string, unknown> | undefined;
  if (block.type === 'action' && typeof input?.['line'] === 'string') return input['line'];
  const output = b['output'] as Record<string, unknown> | undefined;
  if (block.type === 'action_result' && typeof output?.['text'] === 'string') return output['text'];
  return `[${block.type}]`;
}
