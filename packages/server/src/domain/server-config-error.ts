/** Thrown for unusable options; the message names the option and what is valid. */
export class ServerConfigError extends Error {
  override name = 'ServerConfigError';
}
