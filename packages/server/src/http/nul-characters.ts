import { ApiProblem } from './api-problem.js';

/**
 * NUL (U+0000) is refused wherever a request carries it: PostgreSQL text cannot hold it,
 * and an agent could not receive it in a variable or an argument. Both stores then answer
 * alike, with a 400 naming where it was.
 */
const NUL = '\u0000';

/** The path and every query parameter, names included. */
export function refuseNulInUrl(url: URL): void {
  if (/%00/i.test(url.pathname)) throw new ApiProblem('invalid_request', 'The path must not contain the NUL character (%00).');
  for (const [key, value] of url.searchParams) {
    if (key.includes(NUL) || value.includes(NUL)) {
      throw new ApiProblem('invalid_request', `${visibleName(key)}: must not contain control characters (here NUL, U+0000).`);
    }
  }
}

/** A value met in the walk of a body, with where it is (made into a path only when named). */
interface Place {
  value: unknown;
  parent: Place | undefined;
  key: string | number;
}

const pathOf = (place: Place): string => {
  let path = '';
  for (let at: Place | undefined = place; at?.parent; at = at.parent) path = typeof at.key === 'number' ? `[${at.key}]${path}` : `.${at.key}${path}`;
  return `body${path}`;
};

/**
 * Every string and member name of a parsed JSON body; the first found is named
 * (`body.metadata.team`). Walked without recursion: a body may nest as deep as JSON allows.
 */
export function refuseNulInBody(body: unknown): void {
  const stack: Place[] = [{ value: body, parent: undefined, key: '' }];
  while (stack.length > 0) {
    const place = stack.pop()!;
    const { value } = place;
    if (typeof value === 'string') {
      if (value.includes(NUL)) throw new ApiProblem('invalid_request', `${pathOf(place)}: must not contain the NUL character (U+0000).`);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], parent: place, key: i });
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        if (key.includes(NUL)) throw new ApiProblem('invalid_request', `${pathOf(place)}: a member name must not contain the NUL character (U+0000).`);
        stack.push({ value: item, parent: place, key });
      }
    }
  }
}

const visibleName = (key: string) => key.replaceAll(NUL, '\\0');
