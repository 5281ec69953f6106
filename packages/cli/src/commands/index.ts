import type { Command } from '../command.js';
import { artifactsCommand } from './artifacts.js';
import { cancelCommand } from './cancel.js';
import { conversationCommand } from './conversation.js';
import { downloadCommand } from './download.js';
import { followupCommand } from './followup.js';
import { getCommand } from './get.js';
import { treeCommand } from './tree.js';
import { listCommand } from './list.js';
import { logsCommand } from './logs.js';
import { quickstartCommand } from './quickstart.js';
import { runCommand } from './run.js';
import { serveCommand } from './serve.js';
import { workerCommand } from './worker.js';
import { waitCommand } from './wait.js';
import { agentsCommand } from './agents.js';
import { environmentsCommand } from './environments.js';
import { modelsCommand } from './models.js';
import { schedulesCommand } from './schedules.js';
import { skillsCommand } from './skills.js';
import { webhooksCommand } from './webhooks.js';
import { workersCommand } from './workers.js';
import { quotaCommand } from './quota.js';

/** Every command, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [
  runCommand,
  waitCommand,
  getCommand,
  treeCommand,
  logsCommand,
  listCommand,
  cancelCommand,
  followupCommand,
  conversationCommand,
  artifactsCommand,
  downloadCommand,
  schedulesCommand,
  webhooksCommand,
  environmentsCommand,
  modelsCommand,
  skillsCommand,
  agentsCommand,
  workersCommand,
  quotaCommand,
  serveCommand,
  workerCommand,
  quickstartCommand,
];
