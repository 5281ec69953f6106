import {
  visibleText,
  APIConnectionError,
  APIError,
  APIResponseValidationError,
  APIUserAbortError,
  AuthenticationError,
  ClientConfigError,
  DownloadWriteError,
  NotFoundError,
  RequestValidationError,
  WaitTimeoutError,
  nameIssues,
  type IssueNames,
  type ValidationIssue,
} from '@agent-runs/core';
import { EXIT, type ExitCode } from './exit-codes.js';
import { UsageError } from './usage-error.js';

export interface ErrorReport {
  exitCode: ExitCode;
  /** Lines for stderr, each ending in what to do. */
  lines: string[];
}

export interface ErrorReportContext {
  invocation: string;
  /** Where the base URL came from (`--base-url` or the variable that set it), for hints. */
  baseUrlFrom?: string | undefined;
  /** The command that failed, for `--help` hints. */
  command: string | undefined;
  /** Removed from every message, in case a server echoes it. */
  apiKey: string | undefined;
  /** The failed command's flags by the request fields they set (`Command.issueNames`). */
  issueNames?: IssueNames | undefined;
}

/** For a server's refusal naming fields a flag set: a line saying which flag to change, else none. */
function flagLine(issues: readonly ValidationIssue[], names: IssueNames | undefined): string[] {
  if (!names) return [];
  const flags = nameIssues(issues, names)
    .map((issue, i) => (issue.path !== issues[i]!.path && issue.path.startsWith('-') ? `${issue.path} (${issues[i]!.path})` : undefined))
    .filter((x): x is string => x !== undefined);
  return flags.length > 0 ? [`Change ${[...new Set(flags)].join(', ')}.`] : [];
}

function redact(text: string, secret: string | undefined): string {
  return secret && secret.length >= 4 ? text.split(secret).join('***') : text;
}

/** The base URL a request went to: its URL up to the API's own path (`/agent/...`). */
function apiBase(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    const at = parsed.pathname.indexOf('/agent/');
    if (at < 0) return undefined;
    return new URL(parsed.pathname.slice(0, at) || '/', parsed.origin);
  } catch {
    return undefined;
  }
}

function help(ctx: ErrorReportContext): string {
  return `Run "${ctx.invocation}${ctx.command ? ` ${ctx.command}` : ''} --help" for usage.`;
}

function classify(error: unknown, ctx: ErrorReportContext): ErrorReport {
  if (error instanceof UsageError) {
    return { exitCode: EXIT.USAGE, lines: [`error: ${error.message}`, help({ ...ctx, command: error.command ?? ctx.command })] };
  }
  if (error instanceof RequestValidationError) {
    return { exitCode: EXIT.USAGE, lines: [...error.lines.map((line) => `error: ${line}`), help(ctx)] };
  }
  if (error instanceof ClientConfigError) {
    return { exitCode: EXIT.USAGE, lines: [`error: ${error.message}`, `Check ${ctx.baseUrlFrom ?? '--base-url (or AGENT_RUNS_BASE_URL)'}.`] };
  }
  if (error instanceof DownloadWriteError) {
    // A local problem with where the file goes, as a bad --out is: the network and the API are fine.
    return { exitCode: EXIT.USAGE, lines: [`error: ${error.message}`, 'Choose another folder with --out, or make room or permission there.'] };
  }
  if (error instanceof WaitTimeoutError) {
    return { exitCode: EXIT.TIMED_OUT, lines: [`error: ${error.message}`] };
  }
  if (error instanceof AuthenticationError && !ctx.apiKey) {
    return {
      exitCode: EXIT.API_ERROR,
      lines: [
        `error: ${new URL(error.request.url).origin} needs an API key (401), and none was given.`,
        'Pass --api-key or set AGENT_RUNS_API_KEY to one of its keys (a local server prints its key when it starts).',
      ],
    };
  }
  if (error instanceof AuthenticationError) {
    return {
      exitCode: EXIT.API_ERROR,
      lines: [
        `error: the server did not accept the API key (401) at ${new URL(error.request.url).origin}.`,
        'Pass --api-key or set AGENT_RUNS_API_KEY to a valid key for this server.',
      ],
    };
  }
  if (error instanceof NotFoundError) {
    const detail = error.detail ?? error.title ?? 'not found';
    const base = apiBase(error.request.url);
    if (base !== undefined && !/\/v1$/.test(base.pathname)) {
      return {
        exitCode: EXIT.API_ERROR,
        lines: [
          `error: ${detail} (404 from ${error.request.method} ${error.request.url}).`,
          `The base URL ${base.href} does not end in /api/v1: pass ${ctx.baseUrlFrom ?? '--base-url'} the API's address, such as http://127.0.0.1:4280/api/v1.`,
        ],
      };
    }
    return {
      exitCode: EXIT.API_ERROR,
      lines: [`error: ${detail} (404 from ${error.request.method} ${error.request.url}).`, `Check ${error.missing ?? 'the id'} and --base-url.`],
    };
  }
  if (error instanceof APIError) {
    return { exitCode: EXIT.API_ERROR, lines: [`error: ${error.message}`, ...flagLine(error.issues, ctx.issueNames)] };
  }
  if (error instanceof APIResponseValidationError) {
    return { exitCode: EXIT.API_ERROR, lines: [`error: ${error.message}`] };
  }
  if (error instanceof APIConnectionError) {
    return {
      exitCode: EXIT.API_ERROR,
      lines: [`error: ${error.message}`, 'Pass --base-url (or set AGENT_RUNS_BASE_URL) to reach another server.'],
    };
  }
  if (error instanceof APIUserAbortError) {
    return { exitCode: EXIT.INTERRUPTED, lines: ['Interrupted.'] };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    exitCode: EXIT.API_ERROR,
    lines: [`error: ${message}`, 'This is unexpected; set AGENT_RUNS_LOG=debug for details and report it if it persists.'],
  };
}

/** What to print for an error and which code to exit with; never a stack trace, never the key. */
export function reportError(error: unknown, ctx: ErrorReportContext): ErrorReport {
  const report = classify(error, ctx);
  // A line can quote the server (a problem's detail): its control characters are shown, not sent to the terminal.
  return { ...report, lines: report.lines.map((line) => visibleText(redact(line, ctx.apiKey))) };
}
