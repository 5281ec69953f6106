#!/usr/bin/env node
import { invocationFrom } from '../invocation.js';
import { main } from '../main.js';

process.exitCode = await main(process.argv.slice(2), {
  invocation: invocationFrom(process.argv[1], process.cwd(), process.env.npm_command),
});
