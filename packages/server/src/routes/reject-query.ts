import { ApiProblem } from '../http/api-problem.js';

/** For endpoints that take no query parameters: an unexpected one is named, not ignored. */
export function rejectQuery(params: URLSearchParams): void {
  const names = [...new Set(params.keys())];
  if (names.length) throw new ApiProblem('invalid_request', `query: unknown parameter(s) ${names.join(', ')}; this endpoint takes none.`);
}
