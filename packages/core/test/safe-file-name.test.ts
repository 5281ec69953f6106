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
    ['bidi\u202etxt.exe', 'biditxt.exe'],
    ['\u2066isolated\u2069 \u200fmark\u061c.txt', 'isolated mark.txt'],
    ['line\u2028break\u2029.md', 'linebreak.md'],
  ])('makes %j a name to write under a directory: %j', (input, expected) => {
    expect(safeFileName(input, 'fallback')).toBe(expected);
  });
});
