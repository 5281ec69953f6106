import { describe, expect, it } from 'vitest';
import { maskedLog, SecretMask } from '../../src/domain/secret-mask.js';

describe('the secret mask', () => {
  const mask = new SecretMask(['hunter2-secret', 'x']);

  it('masks a value and its base64 and URL-encoded forms, and leaves values too short to mask', () => {
    const b64 = Buffer.from('hunter2-secret').toString('base64');
    expect(mask.mask(`a hunter2-secret b ${b64} c x`)).toBe('a *** b *** c x');
  });

  it('masks a value split across chunks, holding back only what could begin one', () => {
    const stream = mask.stream();
    const out = [stream.push('token: hunt'), stream.push('er2-sec'), stream.push('ret done'), stream.flush()];
    expect(out.join('')).toBe('token: *** done');
    expect(out[0]).toBe('token: ');
    const plain = new SecretMask(['hunter2-secret']).stream();
    expect(plain.push('nothing held here')).toBe('nothing held here');
  });
});

describe('the secret mask, beyond the value itself', () => {
  const secret = 'pa"ss\\word-7Qz';
  const mask = new SecretMask([secret]);

  it('masks its base64 inside a longer encoded text, at each of the three alignments', () => {
    for (const prefix of ['KEY=', 'KEY:=', 'TOKEN=']) {
      const encoded = Buffer.from(`${prefix}${secret}\n`).toString('base64');
      expect(mask.mask(encoded), prefix).toContain('***');
      // What is left decodes to nothing of the secret.
      for (const part of mask.mask(encoded).split('***')) expect(Buffer.from(part, 'base64').toString('latin1')).not.toContain('ss\\word');
    }
  });

  it('masks it escaped in a JSON string (a harness stream line)', () => {
    expect(mask.mask(JSON.stringify({ type: 'text', text: `the key is ${secret}` }))).toBe('{"type":"text","text":"the key is ***"}');
  });

  it('masks the strings of a record and keeps its numbers and keys, so the record stays whole', () => {
    const digits = new SecretMask(['90210']);
    const data = { name: 'report-90210.txt', size: 1902104, size_90210: true, urls: ['https://x/?k=90210'], nested: { note: null } };
    expect(digits.maskStrings(data)).toEqual({ name: 'report-***.txt', size: 1902104, size_90210: true, urls: ['https://x/?k=***'], nested: { note: null } });
  });

  it('masks the lines of the server log', () => {
    const lines: string[] = [];
    const log = maskedLog((line) => lines.push(line), [secret]);
    log(`Could not record what run r1 made: ${secret}`);
    expect(lines).toEqual(['Could not record what run r1 made: ***']);
  });
});
