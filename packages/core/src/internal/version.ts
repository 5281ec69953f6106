/** This package's version, sent in the User-Agent. */
export const VERSION = '0.1.0';
