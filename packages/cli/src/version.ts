import manifest from '../package.json' with { type: 'json' };

/** This command's version, printed by `--version` and sent in the User-Agent: from its own manifest. */
export const VERSION: string = manifest.version;
