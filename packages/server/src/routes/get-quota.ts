import type { PrincipalQuotaResponse } from '@agent-runs/core/contract';
import { ok } from '../openapi/openapi-parts.js';
import { unauthorized } from '../openapi/problem-responses.js';
import type { QuotaUse } from '../runs/principal-quotas.js';
import type { AppRoute } from './app-context.js';
import { rejectQuery } from './reject-query.js';

/** `GET /agent/quota`: the caller's quotas (the configuration file's `quotas:`) and its use of each now. */
export const getQuotaRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/quota',
  auth: true,
  openapi: {
    operationId: 'getQuota',
    summary: "The caller's quotas and its use of them: runs in flight and queued, creates in the last minute, spend today",
    'x-agent-runs-extension': true,
    responses: { ...ok("The caller's quotas and use", 'PrincipalQuotaResponse'), ...unauthorized },
  },
  async handle({ url, app, caller }) {
    rejectQuery(url.searchParams);
    return toQuotaResponse(await app.runs.quotas.use(caller.uid));
  },
};

function toQuotaResponse(use: QuotaUse): PrincipalQuotaResponse {
  return {
    principal: use.principal ?? null,
    runs_in_flight: { used: use.runsInFlight.used, limit: use.runsInFlight.limit ?? null },
    runs_queued: { used: use.runsQueued.used, limit: use.runsQueued.limit ?? null },
    creates_per_minute: { used: use.createsPerMinute.used, limit: use.createsPerMinute.limit ?? null, resets_in_seconds: use.createsPerMinute.resetSeconds ?? null },
    spend_today: {
      day: use.spendToday.day,
      spent_usd: use.spendToday.costUsd,
      tokens: use.spendToday.tokens,
      limit_usd: use.spendToday.limitUsd ?? null,
      resets_at: use.spendToday.resetsAt,
    },
  };
}
