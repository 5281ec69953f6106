import { describe, expect, it } from 'vitest';
import { SecretMask } from '../../src/domain/secret-mask.js';

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
