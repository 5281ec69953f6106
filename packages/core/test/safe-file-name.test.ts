import { describe, expect, it } from 'vitest';
import { safeFileName } from '../src/index.js';

describe('safeFileName', () => {
  it.each([
    ['report.pdf', 'report.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['/abs/path/shot.png', 'shot.png'],
    ['dir\\win.txt', 'win.txt'],
    ['evil\u001b[31m.txt', 'evil[31m.txt'],
    ['..', 'fallback'],
    ['', 'fallback'],
    ['a/b/', 'fallback'],
  ])('makes %j a name to write under a directory: %j', (input, expected) => {
    expect(safeFileName(input, 'fallback')).toBe(expected);
  });
});
