import { expect, it } from 'vitest';
import { LineSplitter, MAX_LINE_CHARS } from '../src/executors/harness/line-splitter.js';

function split(chunks: string[]): string[] {
  const lines: string[] = [];
  const splitter = new LineSplitter((line) => lines.push(line));
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return lines;
}

it('gives each line once it ends, however the chunks cut it', () => {
  const text = 'one\ntwo\n\nthree is longer\nfour';
  const expected = ['one', 'two', '', 'three is longer', 'four'];
  expect(split([text])).toEqual(expected);
  for (let size = 1; size < 8; size++) {
    const chunks = text.match(new RegExp(`[^]{1,${size}}`, 'g'))!;
    expect(split(chunks)).toEqual(expected);
  }
  expect(split(['a\n'])).toEqual(['a']);
  expect(split(['a', '', 'b\n', ''])).toEqual(['ab']);
});

it('cuts a line longer than its bound and goes on with the next one', () => {
  const long = 'x'.repeat(MAX_LINE_CHARS + 10);
  const lines = split([long.slice(0, 1000), long.slice(1000), '\nnext\n']);
  expect(lines[0]!.length).toBe(MAX_LINE_CHARS);
  expect(lines.at(-1)).toBe('next');
});
