import { eventually } from './eventually.js';

/** The API key the worker tests' server processes are started with (`--api-key tester=…`). */
export const TESTER_KEY = 'tester-key-0123456789';

/** A server process's API: its `baseURL` (…/api/v1). */
interface Served {
  baseURL: string;
}

/** A request to the server's API under TESTER_KEY: the status and the JSON answered, if any. */
export async function api(server: Served, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.baseURL}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${TESTER_KEY}`, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export const runOf = async (server: Served, id: string) => (await api(server, `/agent/runs/${id}`)).body;

/** The run once it reached a terminal state, within `timeoutMs`. */
export const ended = (server: Served, id: string, timeoutMs = 10_000) =>
  eventually(() => runOf(server, id), (run) => ['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED', 'BLOCKED'].includes(run.state), timeoutMs);

/** The run's output, as one JSON text to search. */
export const outputOf = async (server: Served, id: string) => JSON.stringify((await api(server, `/agent/runs/${id}/output`)).body);
