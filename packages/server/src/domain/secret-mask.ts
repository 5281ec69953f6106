/** What a secret's value is replaced with in run text. */
export const MASK = '***';
/** Values shorter than this are not masked: masking "a" or "1" would shred every text and reveal the secret by its gaps. */
export const MIN_MASKED_CHARS = 4;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A value and the forms it is printed in: as is, base64 (standard and URL-safe, with and without padding), URL-encoded. */
export function secretForms(value: string): string[] {
  const base64 = Buffer.from(value).toString('base64');
  const forms = [value, base64, base64.replace(/=+$/, ''), Buffer.from(value).toString('base64url'), encodeURIComponent(value), encodeURI(value)];
  return [...new Set(forms)].filter((form) => form.length >= MIN_MASKED_CHARS);
}

/**
 * Replaces every declared secret (and its encoded forms) in run text with `***`. Streamed
 * text goes through `stream()`, which holds back a tail that could be the start of a secret
 * split across two chunks.
 */
export class SecretMask {
  readonly #pattern: RegExp | undefined;
  readonly #forms: string[];
  readonly #longest: number;

  constructor(values: readonly string[]) {
    this.#forms = [...new Set(values.filter((v) => v.length >= MIN_MASKED_CHARS).flatMap(secretForms))].sort((a, b) => b.length - a.length);
    this.#pattern = this.#forms.length ? new RegExp(this.#forms.map(escapeRegExp).join('|'), 'g') : undefined;
    this.#longest = this.#forms[0]?.length ?? 0;
  }

  get empty(): boolean {
    return this.#pattern === undefined;
  }

  mask(text: string): string {
    return this.#pattern ? text.replace(this.#pattern, MASK) : text;
  }

  /** A masker for one stream of chunks: push each chunk, flush at the end. */
  stream(): { push(chunk: string): string; flush(): string } {
    let held = '';
    return {
      push: (chunk) => {
        if (!this.#pattern) return chunk;
        const text = this.mask(held + chunk);
        const keep = this.#heldTail(text);
        held = text.slice(text.length - keep);
        return text.slice(0, text.length - keep);
      },
      flush: () => {
        const rest = held;
        held = '';
        return rest;
      },
    };
  }

  /** How many trailing characters could begin a secret form, so must wait for the next chunk. */
  #heldTail(text: string): number {
    const max = Math.min(this.#longest - 1, text.length);
    for (let n = max; n > 0; n--) {
      const tail = text.slice(text.length - n);
      if (this.#forms.some((form) => form.startsWith(tail))) return n;
    }
    return 0;
  }
}
