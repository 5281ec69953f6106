import manifest from '../../package.json' with { type: 'json' };

/** This package's version, sent in the User-Agent: from its own manifest, so it has one home. */
export const VERSION: string = manifest.version;
