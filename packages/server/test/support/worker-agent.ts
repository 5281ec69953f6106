import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeAgentCommand } from './node-agent.js';

/**
 * The agent: prints its pid, then does what the prompt says. `ok`: a line, a pause, another
 * line and a file artifact; `hang`: a tick every 100 ms until stopped, printed and written
 * to `beat` in its working directory (its pid is the sandbox's, so the beat tells whether
 * it still runs); `hang-loud`: as `hang`, and told to stop (SIGTERM) it prints `stopping`
 * and writes `stopping` beside the beat before it exits, so a test can tell output the agent
 * printed only after the worker decided to stop it; `burst <n>`: n numbered lines as fast as it can; `inbox`: waits for a follow-up in its inbox and prints it; `sleep <ms>`.
 */
export const WORKER_AGENT = nodeAgentCommand(`
  let prompt = '';
  process.stdin.on('data', (d) => (prompt += d)).on('end', () => {
    const [mode, ms] = prompt.trim().split(' ');
    console.log('pid=' + process.pid);
    if (mode === 'ok') {
      console.log('line one');
      setTimeout(() => {
        console.log('line two');
        require('fs').writeFileSync(require('path').join(process.env.AGENT_RUNS_ARTIFACTS_DIR, 'out.txt'), 'hello artifact');
      }, 1500);
    } else if (mode === 'hang' || mode === 'hang-loud') {
      if (mode === 'hang-loud') {
        process.on('SIGTERM', () => {
          console.log('stopping');
          require('fs').writeFileSync('stopping', 'yes');
          setTimeout(() => process.exit(0), 200);
        });
      }
      let n = 0;
      setInterval(() => {
        require('fs').writeFileSync('beat', String(++n));
        console.log('tick');
      }, 100);
    } else if (mode === 'inbox') {
      const timer = setInterval(() => {
        let text = '';
        try { text = require('fs').readFileSync(process.env.AGENT_RUNS_INBOX_FILE, 'utf8'); } catch {}
        if (!text.trim()) return;
        clearInterval(timer);
        console.log('got ' + JSON.parse(text.trim().split('\\n')[0]).message);
      }, 100);
    } else if (mode === 'burst') {
      // Lines written one at a time, so they reach the worker as many separate outputs.
      let i = 0;
      const next = () => (i < Number(ms) ? process.stdout.write('line ' + ++i + '\\n', () => setImmediate(next)) : undefined);
      next();
    } else if (mode === 'sleep') {
      setTimeout(() => console.log('slept'), Number(ms));
    }
  });
`);

/** Whether the run's `hang` agent (its working directory under `workDir`) still runs: its beat file changes within 400 ms. */
export async function agentBeats(workDir: string, runId: string): Promise<boolean> {
  const beat = () => {
    try {
      return readFileSync(join(workDir, runId, 'beat'), 'utf8');
    } catch {
      return '';
    }
  };
  const before = beat();
  await new Promise((resolve) => setTimeout(resolve, 400));
  return beat() !== before;
}
