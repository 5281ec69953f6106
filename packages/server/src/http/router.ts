import { ApiProblem } from './api-problem.js';
import type { HttpContext, Route } from './route.js';

interface CompiledRoute<C extends HttpContext> {
  route: Route<C>;
  pattern: RegExp;
  names: string[];
}

export interface RouteMatch<C extends HttpContext> {
  route: Route<C>;
  params: Record<string, string>;
}

/** Matches method and path to a route; `:name` segments become params. */
export class Router<C extends HttpContext> {
  private readonly compiled: CompiledRoute<C>[];

  constructor(routes: readonly Route<C>[]) {
    this.compiled = routes.map((route) => {
      const names: string[] = [];
      const source = route.path
        .split('/')
        .map((segment) => {
          if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          names.push(segment.slice(1));
          return '([^/]+)';
        })
        .join('/');
      return { route, pattern: new RegExp(`^${source}/?$`), names };
    });
  }

  match(method: string, pathname: string): RouteMatch<C> {
    const allowed: string[] = [];
    for (const { route, pattern, names } of this.compiled) {
      const found = pattern.exec(pathname);
      if (!found) continue;
      if (route.method !== method && !(method === 'HEAD' && route.method === 'GET')) {
        allowed.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      names.forEach((name, i) => {
        params[name] = decodeSegment(found[i + 1]!, name);
      });
      return { route, params };
    }
    if (allowed.length) {
      throw new ApiProblem('operation_not_supported', `${method} is not supported on ${pathname}; use ${allowed.join(' or ')}.`, {
        status: 405,
        headers: { allow: allowed.join(', ') },
      });
    }
    throw new ApiProblem('resource_not_found', `No endpoint at ${method} ${pathname}.`);
  }
}

function decodeSegment(segment: string, name: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ApiProblem('invalid_request', `${name}: "${segment}" is not a valid URL path segment.`, {
      issues: [{ path: name, message: `"${segment}" is not a valid URL path segment.` }],
    });
  }
}
