import type { IncomingMessage } from 'node:http';
import type { RunCreatorInfo } from '@agent-runs/core/contract';
import { DomainError, InvalidInputError } from '../domain/domain-errors.js';
import { ApiProblem } from '../http/api-problem.js';
import { domainProblem } from '../http/domain-problem.js';
import { bytes, stream } from '../http/reply.js';
import { streamRunEvents } from '../routes/stream-run-events.js';
import type { AppContext, AppRoute as Route, AppRouteRequest as RouteRequest, RouteResult } from '../routes/app-context.js';
import { parseListQuery } from '../runs/parse-list-query.js';
import { agentFormPage, agentsPage, agentUpdateOf, environmentsPage, skillsPage } from './catalog-pages.js';
import { DASHBOARD_SCRIPT } from './dashboard-script.js';
import { DASHBOARD_CSS } from './dashboard-styles.js';
import { callerOf, checkCsrf, checkOrigin, cookieOf, COOKIE, isHttps, readForm, sessionCookie } from './dashboard-request.js';
import { DashboardSessions, DEFAULT_SESSION_LIMITS, type DashboardSession, type SessionLimits } from './dashboard-sessions.js';
import { attachmentsOf } from './form-attachments.js';
import { html } from './html.js';
import { ASSET_PATH, layout } from './layout.js';
import { cursorOf, LIST_PAGE_SIZE } from './list-pager.js';
import { LiveRunViews } from './live-run-views.js';
import { modelChoicesOf, pickedModel } from './model-choices.js';
import { newRunPage, runRequestOf, type NewRunChoices } from './new-run-page.js';
import type { PostedFile } from './multipart-form.js';
import { page, seeOther } from './page-reply.js';
import { requestOf } from './run-commands.js';
import { runPage, type ArtifactBody } from './run-page.js';
import { apiListParams } from './runs-query.js';
import { runsPage } from './runs-page.js';
import { scheduleBodyOf, scheduleFormPage, schedulesPage, scheduleValuesOf } from './schedules-page.js';
import { SignInAttempts } from './sign-in-attempts.js';
import { signInPage } from './sign-in-page.js';

/** What a signed-in page handler gets. */
interface DashboardRequest extends RouteRequest {
  session: DashboardSession;
  caller: RunCreatorInfo;
  /** The posted form's text fields (POST routes only). */
  form: URLSearchParams;
  /** Its files, on a route that takes them. */
  files: PostedFile[];
}

type Handler = (r: DashboardRequest) => Promise<RouteResult> | RouteResult;

/** Output kept on a run's page; the rest is read through the API. */
const OUTPUT_TAIL_CHARS = 256 * 1024;
const MAX_ARTIFACT_BODIES = 50;

export interface DashboardOptions {
  timeZone?: string;
  sessions?: SessionLimits;
  /** How often the live runs table is read. */
  liveIntervalMs?: number;
}

function problemOf(error: unknown): ApiProblem | undefined {
  if (error instanceof ApiProblem) return error;
  if (error instanceof DomainError) return domainProblem(error);
  return undefined;
}

function errorPage(session: DashboardSession | undefined, problem: ApiProblem) {
  const body = html`<h1>${problem.status === 404 ? 'Not found' : problem.status === 403 ? 'Refused' : 'Something went wrong'}</h1>
<p class="error" role="alert">${problem.detail}</p><p><a href="/">Back to the runs</a></p>`;
  return page(layout({ title: 'Error', session, body }), problem.status);
}

const baseUrlOf = (req: IncomingMessage) => `${isHttps(req) ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`;

const SELF = 'http://dashboard.invalid';

/**
 * `next` after signing in: a path that parses to this server, else `/`. The browser's own
 * parser decides where a Location goes, and it drops tabs and line breaks and reads `\` as `/`,
 * so `/\t/elsewhere` is another site: the path is judged parsed, and sent as parsed (its control
 * characters escaped), never as given.
 */
function safeNext(next: string | null): string {
  if (!next?.startsWith('/')) return '/';
  let url: URL;
  try {
    url = new URL(next, SELF);
  } catch {
    return '/';
  }
  return url.origin === SELF ? url.pathname + url.search + url.hash : '/';
}

/** The dashboard at the server's root: sign-in, runs, a run, start a run, schedules, the catalog. */
/** Named agents the start form lists (a list page's most); beyond them it takes a typed uid. */
const NAMED_AGENT_CHOICES = 500;

export function dashboardRoutes(options: DashboardOptions = {}): Route[] {
  const limits = options.sessions ?? DEFAULT_SESSION_LIMITS;
  const sessions = new DashboardSessions(limits);
  const attempts = new SignInAttempts();
  const timeZone = options.timeZone ?? 'UTC';
  let live: LiveRunViews | undefined;
  const liveViews = (app: AppContext) => (live ??= new LiveRunViews(app.reads, app.heartbeat, options.liveIntervalMs, undefined, app.events.streams, app.runs.sharedRuns));

  /** `withFiles`: the route takes a multipart form with files; `formProblem` shows a form that could not be read. */
  interface SignedInOptions {
    withFiles?: boolean;
    formProblem?: (r: Omit<DashboardRequest, 'form' | 'files'>, problem: ApiProblem) => Promise<RouteResult>;
  }
  const signedIn = (method: Route['method'], path: string, handle: Handler, extra: SignedInOptions = {}): Route => ({
    method,
    path,
    auth: false,
    ...(method === 'POST' ? { form: true as const } : {}),
    async handle(request) {
      const session = sessions.find(cookieOf(request.req, COOKIE));
      try {
        // The headers are checked before a byte of the body is read: a post from elsewhere, or without a session, sends none in.
        if (method === 'POST') checkOrigin(request.req);
        if (!session) {
          if (method === 'POST') request.req.resume();
          const here = request.url.pathname + request.url.search;
          return seeOther(`/sign-in?next=${encodeURIComponent(method === 'GET' ? here : '/')}`);
        }
        const signed = { ...request, session, caller: callerOf(session) };
        let posted = { fields: new URLSearchParams(), files: [] as PostedFile[] };
        if (method === 'POST') {
          try {
            posted = await readForm(request.req, extra.withFiles === true);
          } catch (error) {
            if (!(error instanceof ApiProblem) || !extra.formProblem || error.status >= 500) throw error;
            return await extra.formProblem(signed, error);
          }
          checkCsrf(posted.fields, session);
        }
        return await handle({ ...signed, form: posted.fields, files: posted.files });
      } catch (error) {
        const problem = problemOf(error);
        if (!problem) throw error;
        return errorPage(session, problem);
      }
    },
  });

  const newRunChoices = async (app: AppContext, caller: RunCreatorInfo): Promise<NewRunChoices> => {
    const [environments, skills, agents] = await Promise.all([
      app.catalog.listEnvironments(caller),
      app.catalog.listSkills({}, caller).catch(() => ({ agents: [] })),
      app.namedAgents.list(caller, { limit: NAMED_AGENT_CHOICES }),
    ]);
    return {
      environments: environments.environments.map((e) => ({ uid: e.uid, name: e.config.name ?? e.uid })),
      skills: skills.agents.flatMap((s) => s.variants.map((v) => v.id)),
      agents: agents.agents.map((a) => ({ uid: a.uid, name: a.name })),
      moreAgents: agents.page_info?.has_next_page === true,
      ...modelChoicesOf(app.models),
    };
  };

  const asset = (name: string, body: string, type: string): Route => ({
    method: 'GET',
    path: `${ASSET_PATH}/${name}`,
    auth: false,
    handle: () => bytes(body, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }),
  });

  return [
    asset('dashboard.css', DASHBOARD_CSS, 'text/css'),
    asset('dashboard.js', DASHBOARD_SCRIPT, 'text/javascript'),
    {
      method: 'GET',
      path: '/sign-in',
      auth: false,
      handle: ({ req, url }) => {
        if (sessions.find(cookieOf(req, COOKIE))) return seeOther(safeNext(url.searchParams.get('next')));
        return page(signInPage(safeNext(url.searchParams.get('next'))));
      },
    },
    {
      method: 'POST',
      path: '/sign-in',
      auth: false,
      form: true,
      async handle({ req, app }) {
        try {
          checkOrigin(req);
          const address = req.socket.remoteAddress ?? '';
          const waitMs = attempts.admit(address);
          if (waitMs > 0) {
            // Refused before the key is read: a guesser learns nothing from it.
            req.resume();
            const seconds = Math.ceil(waitMs / 1000);
            return page(signInPage('/', `Too many wrong keys from your address: try again in ${seconds} s.`), 429, { 'retry-after': String(seconds) });
          }
          const form = (await readForm(req)).fields;
          const next = safeNext(form.get('next'));
          const principal = app.auth.principalOfKey(form.get('api_key') ?? '');
          if (principal === undefined) {
            attempts.failed(address);
            return page(signInPage(next, 'That key is not one of this server\'s API keys.'), 401);
          }
          const session = sessions.open(principal);
          if (!session) {
            const full = `This server holds its most dashboard sessions (${limits.max}): try again once some have expired.`;
            return page(signInPage(next, full), 503, { 'retry-after': '60' });
          }
          return seeOther(next, { 'set-cookie': sessionCookie(req, session.id, Math.floor(limits.absoluteMs / 1000)) });
        } catch (error) {
          const problem = problemOf(error);
          if (!problem) throw error;
          return errorPage(undefined, problem);
        }
      },
    },
    signedIn('POST', '/sign-out', ({ req, session }) => {
      sessions.close(session.id);
      return seeOther('/sign-in', { 'set-cookie': sessionCookie(req, '', 0) });
    }),
    signedIn('GET', '/', async ({ url, app, session, caller }) => {
      const params = apiListParams(url.searchParams);
      const environments = (await app.catalog.listEnvironments(caller)).environments.map((e) => e.uid);
      const liveUrl = `/live/runs?${url.searchParams.toString()}`;
      try {
        const list = await app.reads.list(parseListQuery(params), caller);
        return page(runsPage({ session, url: url.searchParams, page: list, liveUrl, environments }));
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        return page(runsPage({ session, url: url.searchParams, page: undefined, error: error.message, liveUrl, environments }), 400);
      }
    }),
    signedIn('GET', '/live/runs', ({ url, app, caller }) => {
      const params = apiListParams(url.searchParams);
      const query = parseListQuery(params);
      const ticket = app.streamLimits.admit(caller.uid ?? '');
      return stream((req, res) => liveViews(app).open(req, res, caller, query, params.toString(), ticket));
    }),
    signedIn('GET', '/new', async ({ app, session, caller }) => page(newRunPage(session, await newRunChoices(app, caller)))),
    signedIn(
      'POST',
      '/runs',
      async ({ app, session, caller, form, files }) => {
        const choices = await newRunChoices(app, caller);
        try {
          const body = { ...runRequestOf(form, pickedModel(choices, form)) };
          const attachments = attachmentsOf(files);
          if (attachments.length) body.attachments = attachments;
          const created = await app.runs.create({ body, creator: caller, source: 'WEB_APP', idempotencyKey: form.get('idempotency_key') || undefined });
          return seeOther(`/runs/${encodeURIComponent(created.run_id)}`);
        } catch (error) {
          // A request the service refuses is shown on the form, filled in as it was sent.
          const problem = error instanceof DomainError ? domainProblem(error) : undefined;
          if (!problem || problem.status >= 500) throw error;
          return page(newRunPage(session, choices, form, problem.detail), problem.status);
        }
      },
      {
        withFiles: true,
        // A form too large to read is shown again, empty, with what was too large.
        formProblem: async ({ app, session, caller }, problem) => page(newRunPage(session, await newRunChoices(app, caller), undefined, problem.detail), problem.status),
      },
    ),
    signedIn('GET', '/runs/:runId', async ({ req, url, params, app, session, caller }) => {
      const run = await app.reads.item(params.runId!, caller);
      const [conversation, output, downloads] = await Promise.all([
        app.reads.conversation(run.run_id, caller).catch(() => undefined),
        readOutput(app, run.run_id, caller),
        artifactBodies(app, run.artifacts ?? [], caller),
      ]);
      const notice = url.searchParams.get('done') ?? undefined;
      return page(runPage({ session, run, conversation, output, downloads, baseUrl: baseUrlOf(req), search: url.searchParams.get('q') ?? '', notice }));
    }),
    signedIn('GET', '/runs/:runId/events', async (request) => {
      const run = await request.app.runs.getOrThrow(request.params.runId!, request.caller);
      return streamRunEvents(request, run, (event) => event.data, { principal: request.caller.uid ?? '' });
    }),
    signedIn('POST', '/runs/:runId/cancel', async ({ params, app, caller }) => {
      const run = await app.runs.cancel(params.runId!, caller);
      return seeOther(`/runs/${encodeURIComponent(run.id)}?done=${encodeURIComponent('Cancel requested.')}`);
    }),
    signedIn('POST', '/runs/:runId/followups', async ({ params, app, caller, form }) => {
      const mode = form.get('mode');
      await app.followups.submit(params.runId!, { message: form.get('message') ?? '', ...(mode ? { mode } : {}) }, caller);
      return seeOther(`/runs/${encodeURIComponent(params.runId!)}?done=${encodeURIComponent('Follow-up sent.')}`);
    }),
    signedIn('POST', '/runs/:runId/again', async ({ params, app, caller }) => {
      const run = await app.reads.item(params.runId!, caller);
      const created = await app.runs.create({ body: requestOf(run), creator: caller, source: 'WEB_APP', idempotencyKey: undefined });
      return seeOther(`/runs/${encodeURIComponent(created.run_id)}`);
    }),
    signedIn('GET', '/schedules', async ({ url, app, session, caller }) => {
      const cursor = cursorOf(url);
      const list = await app.schedules.list(caller, { limit: LIST_PAGE_SIZE, cursor });
      return page(schedulesPage(session, list.schedules, { cursor, next: list.page_info?.next_cursor ?? undefined }));
    }),
    signedIn('GET', '/schedules/new', ({ session }) => page(scheduleFormPage(session, scheduleValuesOf(new URLSearchParams()), {}, timeZone))),
    signedIn('GET', '/schedules/:id/edit', async ({ params, app, session, caller }) => {
      const schedule = await app.schedules.get(params.id!, caller);
      return page(scheduleFormPage(session, scheduleValuesOf(new URLSearchParams(), schedule), { id: schedule.id }, timeZone));
    }),
    signedIn('POST', '/schedules', async ({ app, session, caller, form }) => saveSchedule(form, session, undefined, () => app.schedules.create(scheduleBodyOf(form), caller))),
    signedIn('POST', '/schedules/:id', async ({ params, app, session, caller, form }) =>
      saveSchedule(form, session, params.id!, () => app.schedules.update(params.id!, scheduleBodyOf(form), caller)),
    ),
    signedIn('POST', '/schedules/:id/pause', async ({ params, app, caller }) => {
      await app.schedules.pause(params.id!, caller);
      return seeOther('/schedules');
    }),
    signedIn('POST', '/schedules/:id/resume', async ({ params, app, caller }) => {
      await app.schedules.resume(params.id!, caller);
      return seeOther('/schedules');
    }),
    signedIn('GET', '/environments', async ({ app, session, caller }) => page(environmentsPage(session, await app.catalog.listEnvironments(caller)))),
    signedIn('GET', '/skills', async ({ app, session, caller }) => page(skillsPage(session, await app.catalog.listSkills({}, caller)))),
    signedIn('GET', '/agents', async ({ url, app, session, caller }) => {
      const cursor = cursorOf(url);
      const list = await app.namedAgents.list(caller, { limit: LIST_PAGE_SIZE, cursor });
      return page(agentsPage(session, list.agents, { cursor, next: list.page_info?.next_cursor ?? undefined }));
    }),
    signedIn('GET', '/agents/:uid/edit', async ({ params, app, session, caller }) => page(agentFormPage(session, await app.namedAgents.get(params.uid!, caller)))),
    signedIn('POST', '/agents/:uid', async ({ params, app, session, caller, form }) => {
      try {
        await app.namedAgents.update(params.uid!, agentUpdateOf(form), caller);
        return seeOther('/agents');
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        return page(agentFormPage(session, await app.namedAgents.get(params.uid!, caller), form, error.message), 400);
      }
    }),
  ];

  async function saveSchedule(form: URLSearchParams, session: DashboardSession, id: string | undefined, save: () => Promise<unknown>) {
    const values = scheduleValuesOf(form);
    if (form.get('intent') === 'check') return page(scheduleFormPage(session, values, { id }, timeZone));
    try {
      await save();
      return seeOther('/schedules');
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      return page(scheduleFormPage(session, values, { id }, timeZone, error.message), 400);
    }
  }
}

/** The end of a run's stored output, and the event its stream resumes after. */
async function readOutput(app: AppContext, runId: string, caller: RunCreatorInfo) {
  let text = '';
  let omitted = false;
  let since = 0;
  for (let pages = 0; pages < 64; pages++) {
    const chunkPage = await app.reads.output(runId, since, caller);
    if (chunkPage.dropped) omitted = true;
    for (const chunk of chunkPage.chunks) text += chunk.text;
    if (text.length > OUTPUT_TAIL_CHARS) {
      text = text.slice(text.length - OUTPUT_TAIL_CHARS);
      omitted = true;
    }
    since = chunkPage.next_since;
    if (!chunkPage.has_more) break;
  }
  return { text, omitted, lastEventId: since };
}

/** Download paths of files and screenshots, and plans' text, as the caller may read them. */
async function artifactBodies(app: AppContext, items: readonly { artifact_type: string; data?: unknown }[], caller: RunCreatorInfo) {
  const bodies = new Map<string, ArtifactBody>();
  for (const item of items.slice(0, MAX_ARTIFACT_BODIES)) {
    const data = (item.data ?? {}) as Record<string, unknown>;
    const uid = typeof data.artifact_uid === 'string' ? data.artifact_uid : item.artifact_type === 'PLAN' && typeof data.document_uid === 'string' ? data.document_uid : undefined;
    if (!uid) continue;
    try {
      const response = (await app.reads.artifact(uid, caller)) as { data: Record<string, unknown> };
      const url = typeof response.data.download_url === 'string' && response.data.download_url ? new URL(response.data.download_url) : undefined;
      bodies.set(uid, {
        ...(url ? { path: url.pathname + url.search } : {}),
        ...(typeof response.data.content === 'string' ? { content: response.data.content } : {}),
      });
    } catch {
      // An artifact without a body to show (a pull request, a link) is listed as it is.
    }
  }
  return bodies;
}
