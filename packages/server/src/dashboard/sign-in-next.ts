const SELF = 'http://dashboard.invalid';

/**
 * `next` after signing in: a path that parses to this server, else `/`. The browser's own
 * parser decides where a Location goes, and it drops tabs and line breaks and reads `\` as `/`,
 * so `/\t/elsewhere` is another site: the path is judged parsed, and sent as parsed (its control
 * characters escaped), never as given.
 */
export function safeNext(next: string | null): string {
  if (!next?.startsWith('/')) return '/';
  let url: URL;
  try {
    url = new URL(next, SELF);
  } catch {
    return '/';
  }
  return url.origin === SELF ? url.pathname + url.search + url.hash : '/';
}
