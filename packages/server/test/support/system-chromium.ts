import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { installDebianPackage } from './debian-package.js';

export const CHROMIUM = '/usr/bin/chromium';

/** Debian's `chromium`, installed with apt-get when it is missing (as CI does in `.ci/run`). */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium) to run the browser tests.`);
  }
  installDebianPackage('chromium');
}

/** A headless Chromium with a fresh profile and nothing that reaches out to the network on its own. */
export async function launchChromium(): Promise<BrowserContext> {
  ensureChromium();
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'agent-runs-chromium-')), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1000, height: 760 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
