export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

export interface Logger {
  debug(message: string, ...rest: unknown[]): void;
  info(message: string, ...rest: unknown[]): void;
  warn(message: string, ...rest: unknown[]): void;
  error(message: string, ...rest: unknown[]): void;
}

const ORDER: LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];

export function parseLogLevel(value: string | undefined): LogLevel | undefined {
  const level = value?.trim().toLowerCase();
  return ORDER.includes(level as LogLevel) ? (level as LogLevel) : undefined;
}

/** A logger that drops lines below `level`. Logging goes to stderr by default, never stdout. */
export function levelledLogger(level: LogLevel, target: Logger = console): Logger {
  const at = ORDER.indexOf(level);
  const noop = () => {};
  return {
    error: at >= 1 ? target.error.bind(target) : noop,
    warn: at >= 2 ? target.warn.bind(target) : noop,
    info: at >= 3 ? target.info.bind(target) : noop,
    debug: at >= 4 ? target.debug.bind(target) : noop,
  };
}

/** Headers as they may be logged: credentials replaced. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = /^(authorization|cookie|x-api-key)$/i.test(name) ? '***' : value;
  }
  return out;
}
