import { describe, expect, it } from 'vitest';
import { CandidateIdSchema, normaliseCandidateText } from './candidate-id.ts';
import { candidateKey } from './candidate-key.ts';

describe('candidateKey', () => {
  it('keeps the key of plain ASCII IDs as it always was: trimmed and lower-cased', () => {
    expect(candidateKey('  S-101 ')).toBe('s-101');
    expect(candidateKey('Ana.Lopez')).toBe('ana.lopez');
    // confusables.txt maps "0" to "O" and "I" to "l"; ASCII is left alone so stored keys keep matching.
    expect(candidateKey('IO-10')).toBe('io-10');
  });

  it.each([
    ['zero-width space', 'S-1\u200b01'],
    ['zero-width joiner and non-joiner', '\u200dS-101\u200c'],
    ['soft hyphen', 'S-\u00ad101'],
    ['word joiner and BOM', '\u2060S-101\ufeff'],
    ['bidi override and isolates', '\u202eS-101\u202c\u2066\u2069'],
    ['variation selector', 'S-101\ufe0f'],
    ['Hangul filler', 'S-101\u3164'],
    ['full-width forms', 'Ｓ－１０１'],
  ])('gives the same key to an ID with %s', (_, id) => {
    expect(candidateKey(id)).toBe('s-101');
  });

  it.each([
    ['Cyrillic a, e, o', 'ѕаrаh.соореr', 'sarah.cooper'],
    ['Cyrillic capitals', 'АВС-123', 'abc-123'],
    ['Greek omicron and nu', 'ονe', 'ove'],
    ['mathematical bold', '𝐒-101', 's-101'],
    ['script small l', 'ℓee', 'lee'],
  ])('folds mixed-script look-alikes (%s) to the Latin key', (_, id, key) => {
    expect(candidateKey(id)).toBe(key);
  });

  it('keeps IDs that look different apart', () => {
    expect(candidateKey('S-101')).not.toBe(candidateKey('S-102'));
    expect(candidateKey('müller')).not.toBe(candidateKey('muller'));
  });
});

describe('CandidateIdSchema', () => {
  it('stores the ID without what cannot be seen, spaces collapsed', () => {
    expect(CandidateIdSchema.parse(' S-\u200b101  A ')).toBe('S-101 A');
    expect(normaliseCandidateText('Ada\u202e  Lovelace')).toBe('Ada Lovelace');
    expect(normaliseCandidateText('Line\nBreak\tTab\u3000Wide')).toBe('Line Break Tab Wide');
  });

  it('refuses an ID of nothing but invisible characters, naming the reason', () => {
    const parsed = CandidateIdSchema.safeParse('\u200b\u200d\u00ad');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('Candidate ID is required');
  });
});
