import type { Command } from '../command.js';
import { cancelCommand } from './cancel.js';
import { getCommand } from './get.js';
import { listCommand } from './list.js';
import { logsCommand } from './logs.js';
import { quickstartCommand } from './quickstart.js';
import { runCommand } from './run.js';
import { serveCommand } from './serve.js';
import { waitCommand } from './wait.js';

/** Every command, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [
  runCommand,
  waitCommand,
  getCommand,
  logsCommand,
  listCommand,
  cancelCommand,
  serveCommand,
  quickstartCommand,
];
