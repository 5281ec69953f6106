import { DomainError } from '../domain/domain-errors.js';
import { ApiProblem } from '../http/api-problem.js';
import { domainProblem } from '../http/domain-problem.js';
import type { DashboardSession } from './dashboard-sessions.js';
import { html } from './html.js';
import { layout } from './layout.js';
import { page } from './page-reply.js';

function problemOf(error: unknown): ApiProblem | undefined {
  if (error instanceof ApiProblem) return error;
  if (error instanceof DomainError) return domainProblem(error);
  return undefined;
}

/** A refused request as a page with the problem's status; any other error goes on to the server's own handling. */
export function errorPageOf(error: unknown, session: DashboardSession | undefined) {
  const problem = problemOf(error);
  if (!problem) throw error;
  const body = html`<h1>${problem.status === 404 ? 'Not found' : problem.status === 403 ? 'Refused' : 'Something went wrong'}</h1>
<p class="error" role="alert">${problem.detail}</p><p><a href="/">Back to the runs</a></p>`;
  return page(layout({ title: 'Error', session, body }), problem.status);
}
