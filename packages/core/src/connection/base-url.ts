import { ClientConfigError } from '../errors/request-validation-error.js';
import { API_KEY_VARIABLES } from './env-settings.js';

export const DEFAULT_BASE_URL = 'https://app.warp.dev/api/v1';

/** True for localhost, 127.0.0.0/8 and ::1: the only hosts a key may reach over plain http. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** What is wrong with a base URL as text (not a URL, credentials in it, another scheme), or undefined. */
export function baseURLProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `must be an absolute http(s) URL such as ${DEFAULT_BASE_URL}, got "${raw}"`;
  }
  if (url.username || url.password) return `must not carry credentials: pass the key as apiKey (or ${API_KEY_VARIABLES})`;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `must use https: or http:, got "${url.protocol}"`;
  return undefined;
}

/** The base URL parsed; a ClientConfigError names what is wrong with it. */
export function parseBaseURL(raw: string): URL {
  const problem = baseURLProblem(raw);
  if (problem) throw new ClientConfigError(`baseURL ${problem}.`);
  return new URL(raw);
}

/** Where a client sends requests, and whether it has a key. `AgentRunsClient` is one. */
export interface ApiKeyTarget {
  baseURL: string;
  hasApiKey: boolean;
}

/**
 * The problem when no API key is set for a server that is not on this machine (every call
 * would be a 401), else undefined. `how` says how this program takes a key, e.g. `pass --api-key`.
 */
export function missingApiKeyProblem(target: ApiKeyTarget, how: string): string | undefined {
  if (target.hasApiKey || isLoopbackHost(new URL(target.baseURL).hostname)) return undefined;
  return `No API key for ${target.baseURL}: ${how} or set ${API_KEY_VARIABLES}.`;
}
