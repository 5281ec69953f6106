/** The in-sandbox bridge's address, where the agent's HTTP(S)_PROXY points under an allow-list. */
export const BRIDGE_PORT = 3128;

/** The proxy variables an agent under an allow-list gets (both cases: tools read either). */
export function proxyEnv(): Record<string, string> {
  const url = `http://127.0.0.1:${BRIDGE_PORT}`;
  return { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url, NO_PROXY: '', no_proxy: '' };
}
