import { readFileSync } from 'node:fs';

// Read once from the package's own manifest, so the version has one home.
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

export const VERSION: string = manifest.version;
export const SERVER_NAME = 'agent-runs';
