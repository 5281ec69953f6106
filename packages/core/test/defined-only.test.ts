import { describe, expect, it } from 'vitest';
import { definedOnly } from '../src/index.js';

describe('definedOnly', () => {
  it('leaves out undefined members and keeps every other value, falsy ones included', () => {
    const run: { id: string } | undefined = undefined;
    const copy = definedOnly({ a: 1, b: undefined, c: null, d: '', e: 0, f: false, run });
    expect(Object.keys(copy)).toEqual(['a', 'c', 'd', 'e', 'f']);
    expect(copy).toStrictEqual({ a: 1, c: null, d: '', e: 0, f: false });
  });

  it('gives a type whose maybe-undefined members are optional instead', () => {
    const value: string | undefined = 'x';
    const exact: { name: string; note?: string } = definedOnly({ name: 'n', note: value });
    expect(exact).toEqual({ name: 'n', note: 'x' });
  });

  it('copies shallowly and leaves its argument alone', () => {
    const inner = { deep: undefined };
    const source = { inner, gone: undefined };
    const copy = definedOnly(source);
    expect(copy.inner).toBe(inner);
    expect('gone' in source).toBe(true);
  });
});
