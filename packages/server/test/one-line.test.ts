import { describe, expect, it } from 'vitest';
import { oneLine, plainText } from '../src/domain/one-line.js';

// What a run's title or agent could carry to forge a line: an ESC sequence, a C1 CSI, a bare
// CR, a line separator, a right-to-left override.
const HOSTILE = 'Fix\u001b[2J it\r\nDone\u009b31m\u2028now \u202egnp.exe';

describe('text from a run, made one line', () => {
  it('oneLine turns each run of control, separator and bidirectional characters into a space, trims, and stops at its bound', () => {
    expect(oneLine(HOSTILE, 200)).toBe('Fix [2J it Done 31m now  gnp.exe');
    expect(oneLine(`  ${'a'.repeat(300)}\n`, 200)).toBe('a'.repeat(200));
    expect(oneLine('\u0000\u0085\u2066', 10)).toBe('');
  });

  it('plainText removes them, keeping the rest as it was', () => {
    expect(plainText(HOSTILE)).toBe('Fix[2J itDone31mnow gnp.exe');
    expect(plainText('a tab\tis a control too')).toBe('a tabis a control too');
  });
});
