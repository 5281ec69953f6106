/** Values shorter than this are not masked: they would hide ordinary words, and are not keys. */
const MIN_SECRET_CHARS = 8;

/** Replaces every occurrence of each secret value in `text` with `***`. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_CHARS && masked.includes(secret)) masked = masked.split(secret).join('***');
  }
  return masked;
}
