/** What a secret's value is replaced with in run text. */
export const MASK = '***';
/** Values shorter than this are not masked: masking "a" or "1" would shred every text and reveal the secret by its gaps. */
export const MIN_MASKED_CHARS = 4;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The base64 characters that stand for `bytes` wherever they lie in a longer encoded text
 * (`echo "KEY=$KEY" | base64`): for each of the three alignments, the characters that
 * depend on these bytes alone.
 */
function embeddedBase64(bytes: Buffer): string[] {
  return [0, 1, 2].map((shift) => {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64').replace(/=+$/, '');
    // The leading characters mix in the bytes before; a last partial group mixes in the bytes after.
    const head = [0, 2, 3][shift]!;
    const tail = (shift + bytes.length) % 3 === 0 ? 0 : 1;
    return encoded.slice(head, encoded.length - tail);
  });
}

/**
 * A value and the forms it is printed in: as is, base64 (standard and URL-safe, with and
 * without padding, and inside a longer encoded text), URL-encoded, and escaped in a JSON
 * string (a harness's JSON stream, an artifact's fields).
 */
export function secretForms(value: string): string[] {
  const bytes = Buffer.from(value);
  const base64 = bytes.toString('base64');
  const embedded = embeddedBase64(bytes);
  const forms = [
    value,
    base64,
    base64.replace(/=+$/, ''),
    bytes.toString('base64url'),
    ...embedded,
    ...embedded.map((form) => form.replace(/\+/g, '-').replace(/\//g, '_')),
    encodeURIComponent(value),
    encodeURI(value),
    JSON.stringify(value).slice(1, -1),
  ];
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
  readonly #values: readonly string[];

  constructor(values: readonly string[]) {
    this.#values = values;
    this.#forms = [...new Set(values.filter((v) => v.length >= MIN_MASKED_CHARS).flatMap(secretForms))].sort((a, b) => b.length - a.length);
    this.#pattern = this.#forms.length ? new RegExp(this.#forms.map(escapeRegExp).join('|'), 'g') : undefined;
    this.#longest = this.#forms[0]?.length ?? 0;
  }

  /** This mask and `values` too (a run's own token, beside the configuration's secrets). */
  and(values: readonly string[]): SecretMask {
    return values.length ? new SecretMask([...this.#values, ...values]) : this;
  }

  get empty(): boolean {
    return this.#pattern === undefined;
  }

  mask(text: string): string {
    return this.#pattern ? text.replace(this.#pattern, MASK) : text;
  }

  /** Every string inside `value` (arrays, objects, keys left as they are) masked; numbers and the rest kept. */
  maskStrings<T>(value: T): T {
    if (typeof value === 'string') return this.mask(value) as T;
    if (Array.isArray(value)) return value.map((item: unknown) => this.maskStrings(item)) as T;
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.maskStrings(item)])) as T;
    }
    return value;
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

/** `log` with the declared secrets masked in every line: an error's message may quote run text. */
export function maskedLog(log: (line: string) => void, values: readonly string[]): (line: string) => void {
  const mask = new SecretMask(values);
  return mask.empty ? log : (line) => log(mask.mask(line));
}
