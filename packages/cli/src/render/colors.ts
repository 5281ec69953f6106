import { isInteractive, type Io, type OutputStream } from '../io.js';

export interface Paint {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  /** A state name coloured by what it means. */
  state(state: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;

const PLAIN: Paint = {
  bold: (t) => t,
  dim: (t) => t,
  green: (t) => t,
  red: (t) => t,
  yellow: (t) => t,
  cyan: (t) => t,
  state: (t) => t,
};

function ansiPaint(): Paint {
  const paint = {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    green: wrap(32, 39),
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
  return {
    ...paint,
    state(state) {
      if (state === 'SUCCEEDED') return paint.green(state);
      if (state === 'FAILED' || state === 'ERROR') return paint.red(state);
      if (state === 'CANCELLED' || state === 'BLOCKED') return paint.yellow(state);
      return paint.cyan(state);
    },
  };
}

/** Colours for a stream: only on a terminal, never with NO_COLOR; FORCE_COLOR forces them. */
export function paintFor(stream: OutputStream, env: Io['env']): Paint {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return PLAIN;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return ansiPaint();
  return isInteractive(stream, env) ? ansiPaint() : PLAIN;
}
