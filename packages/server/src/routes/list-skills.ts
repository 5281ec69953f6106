import { formatIssues, ListAgentSkillsQuerySchema, type AgentSkill } from '@agent-runs/core';
import { ApiProblem } from '../http/api-problem.js';
import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';
import { toVariant } from '../catalog/skill-catalog.js';

/** `GET /agent`: the skills the server found, grouped by name, each SKILL.md a variant. */
export const listSkillsRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent',
  auth: true,
  async handle({ res, url, app }) {
    const parsed = ListAgentSkillsQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    if (!parsed.success) throw new ApiProblem('invalid_request', formatIssues(parsed.error, 'query').join('; '));
    const q = parsed.data;
    const lastRuns = await app.activity.lastRunOfSkills();
    const byName = new Map<string, AgentSkill>();
    for (const v of await app.skills.variants(q.refresh ?? false)) {
      if (v.error && !q.include_malformed_skills) continue;
      if (q.repo !== undefined && q.repo !== v.repo && q.repo !== `${v.owner}/${v.repo}`) continue;
      const skill = byName.get(v.name) ?? { name: v.name, variants: [] };
      skill.variants.push(toVariant(v, lastRuns.get(v.id)));
      byName.set(v.name, skill);
    }
    const latest = (s: AgentSkill) => s.variants.reduce((at, v) => (v.last_run_timestamp && v.last_run_timestamp > at ? v.last_run_timestamp : at), '');
    const agents = [...byName.values()].sort((a, b) =>
      q.sort_by === 'last_run' ? latest(b).localeCompare(latest(a)) || a.name.localeCompare(b.name) : a.name.localeCompare(b.name),
    );
    sendJson(res, 200, { agents });
  },
};
