import { describe, expect, it } from 'vitest';
import { formatResumeCode, normaliseResumeCode } from './attempt-binding.ts';
import { candidateKey } from './candidate-key.ts';

describe('candidateKey', () => {
  it('folds case, surrounding spaces and full-width forms into one key', () => {
    for (const id of ['S-Case-7', ' s-case-7 ', 'Ｓ-ＣＡＳＥ-７', '\u3000S-CASE-7'])
      expect(candidateKey(id)).toBe('s-case-7');
  });

  it('keeps IDs that differ in anything else apart', () => {
    expect(candidateKey('S-1')).not.toBe(candidateKey('S-2'));
    expect(candidateKey('S 1')).not.toBe(candidateKey('S1'));
  });
});

describe('normaliseResumeCode', () => {
  it('ignores case, spaces and the dash, and reads I and L as 1 and O as 0', () => {
    expect(normaliseResumeCode(' 7kq2-m9xd ')).toBe('7KQ2M9XD');
    expect(normaliseResumeCode('ILO0')).toBe('1100');
  });

  it('shows a code in two groups of four', () => {
    expect(formatResumeCode('7KQ2M9XD')).toBe('7KQ2-M9XD');
  });
});
