export { main, type MainOptions } from './main.js';
export { EXIT, exitCodeForState, type ExitCode } from './exit-codes.js';
export type { Io, OutputStream } from './io.js';
export { VERSION } from './version.js';
