/** This command's version, printed by `--version` and sent in the User-Agent. */
export const VERSION = '0.1.0';
