/**
 * undici, loaded on the first request rather than at import: programs that import the
 * client but answer `--help` or an MCP `initialize` first start a third faster.
 */
let undici: Promise<typeof import('undici')> | undefined;

export function loadUndici(): Promise<typeof import('undici')> {
  undici ??= import('undici');
  return undici;
}
