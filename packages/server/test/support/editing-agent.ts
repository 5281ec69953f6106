import { nodeAgentCommand } from './node-agent.js';

/**
 * An agent that edits a checkout at `web/`, as the prompt says: `write <text>` appends the text
 * as a line to web/notes.txt, `hang` does so and waits to be cancelled. It prints every variable
 * it was given, so a test sees whether a credential was among them.
 */
export const EDITING_AGENT = nodeAgentCommand(`
  let prompt = '';
  process.stdin.on('data', (d) => (prompt += d)).on('end', () => {
    const fs = require('node:fs');
    console.log(JSON.stringify(process.env));
    const [mode, ...words] = prompt.trim().split(' ');
    fs.appendFileSync('web/notes.txt', words.join(' ') + '\\n');
    if (mode === 'hang') setInterval(() => {}, 1000);
  });
`);
