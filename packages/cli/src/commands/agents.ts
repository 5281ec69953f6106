import { agentUidFor, parseMcpServersInput, visibleText, type AgentIdentity, type CreateAgentIdentityRequest } from '@agent-runs/core';
import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { agentsHint, resolveEnvironmentAndAgentFlags } from '../input/environment-and-agent-flags.js';
import { renderTable } from '../render/aligned-table.js';
import { paintFor } from '../render/colors.js';
import { writeJson } from '../render/json-output.js';
import { UsageError } from '../usage-error.js';

const SUBCOMMANDS = ['list', 'get', 'create', 'delete'] as const;

function details(a: AgentIdentity): string {
  const rows: [string, string | undefined][] = [
    ['id', a.uid],
    ['name', a.name],
    ['description', a.description ?? undefined],
    ['environment', a.environment_id],
    ['skills', a.skills.length ? a.skills.join(', ') : undefined],
    ['mcp servers', a.mcp_servers ? Object.keys(a.mcp_servers).join(', ') : undefined],
    ['model', a.base_model],
    ['prompt', a.prompt ?? undefined],
  ];
  return rows.filter(([, v]) => v !== undefined).map(([k, v]) => `${`${k}:`.padEnd(13)}${visibleText(v!)}`).join('\n') + '\n';
}

export const agentsCommand: Command = {
  name: 'agents',
  summary: 'List, show, create and delete named agents',
  usage: `${SUBCOMMANDS.join('|')} [<name-or-id>] [flags]`,
  description:
    'Named agents bundle a prompt, skills, MCP servers and an environment under one name; run --agent starts a\n' +
    'run with their defaults. get and delete take a named agent’s name or id.',
  positionals: true,
  usesApi: true,
  flags: {
    name: { type: 'string', value: '<name>', description: 'create: the named agent’s name (required)' },
    description: { type: 'string', value: '<text>', description: 'create: what it is for' },
    prompt: { type: 'string', value: '<text>', description: 'create: its standing instructions (the runs’ base prompt)' },
    skill: { type: 'string', multiple: true, value: '<spec>', description: 'create: a skill it uses (repeatable)' },
    environment: { type: 'string', value: '<name-or-id>', description: 'create: the environment its runs execute in' },
    mcp: { type: 'string', value: '<json-or-file>', description: 'create: MCP servers, as for run --mcp' },
    model: { type: 'string', value: '<id>', description: 'create: the model of its runs' },
    json: { type: 'boolean', description: 'Print the result as JSON' },
  },
  examples: ['$0 agents list', '$0 agents create --name reviewer --prompt "Review carefully" --skill acme/tools:review --environment web', '$0 run "Review PR 12" --agent reviewer'],
  async run(flags, ctx) {
    const [sub, target, ...extra] = flags.positionals;
    if (!sub || !(SUBCOMMANDS as readonly string[]).includes(sub)) {
      throw new UsageError(`"agents" needs one of ${SUBCOMMANDS.join(', ')}${sub ? `, got "${sub}"` : ''}.`, 'agents');
    }
    const needsTarget = sub === 'get' || sub === 'delete';
    if (needsTarget && !target?.trim()) throw new UsageError(`"agents ${sub}" needs a named agent’s name or id (see agents list).`, 'agents');
    if (extra.length || (!needsTarget && target !== undefined)) throw new UsageError(`Too many arguments for "agents ${sub}".`, 'agents');
    const client = ctx.client();
    const json = flags.bool('json');
    if (sub === 'list') {
      const result: { agents: AgentIdentity[] } = { agents: [] };
      for await (const agent of client.agents.list({ limit: 500 })) result.agents.push(agent);
      if (json) writeJson(ctx.io.stdout, result);
      else if (result.agents.length === 0) ctx.io.stdout.write('No named agents.\n');
      else {
        const rows = result.agents.map((a) => [a.uid, a.name, a.environment_id ?? '-', a.skills.join(', ') || '-']);
        ctx.io.stdout.write(renderTable(['AGENT ID', 'NAME', 'ENVIRONMENT', 'SKILLS'], rows, paintFor(ctx.io.stdout, ctx.io.env)));
      }
      return EXIT.OK;
    }
    if (sub === 'create') {
      const name = flags.nonEmpty('name');
      if (name === undefined) throw new UsageError('"agents create" needs --name.', 'agents');
      const { environmentId } = await resolveEnvironmentAndAgentFlags(flags, client, ctx.invocation);
      const mcp = flags.string('mcp');
      const description = flags.nonEmpty('description');
      const prompt = flags.nonEmpty('prompt');
      const model = flags.nonEmpty('model');
      const body: CreateAgentIdentityRequest = {
        name,
        description,
        prompt,
        skills: flags.list('skill').length ? flags.list('skill') : undefined,
        environment_id: environmentId,
        mcp_servers: mcp === undefined ? undefined : parseMcpServersInput(mcp, '--mcp'),
        base_model: model,
      };
      const created = await client.agents.create(body);
      if (json) writeJson(ctx.io.stdout, created);
      else ctx.io.stdout.write(`Created named agent ${visibleText(created.uid)}.\n${details(created)}`);
      return EXIT.OK;
    }
    const agentUid = await agentUidFor(client.agents, target!.trim(), '<name-or-id>', agentsHint(ctx.invocation));
    if (sub === 'get') {
      const agent = await client.agents.get(agentUid);
      if (json) writeJson(ctx.io.stdout, agent);
      else ctx.io.stdout.write(details(agent));
      return EXIT.OK;
    }
    await client.agents.delete(agentUid);
    if (json) writeJson(ctx.io.stdout, { uid: agentUid, deleted: true });
    else ctx.io.stdout.write(`Deleted named agent ${visibleText(agentUid)}.\n`);
    return EXIT.OK;
  },
};
