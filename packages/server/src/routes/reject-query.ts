import { InvalidInputError } from '../domain/domain-errors.js';

/** For endpoints that take no query parameters: an unexpected one is named, not ignored. */
export function rejectQuery(params: URLSearchParams): void {
  const names = [...new Set(params.keys())];
  if (names.length) {
    throw new InvalidInputError(
      names.map((name) => ({ path: name, message: 'is not a parameter of this endpoint' })),
      `query: unknown parameter(s) ${names.join(', ')}; this endpoint takes none.`,
    );
  }
}
