import { describe, expect, it } from 'vitest';
import { ITEMS, LABELLED } from './leak-detection.fixture.ts';
import { auditKeysOf, detectLeak, guardVerdict } from './leak-detection.ts';

const verdictOf = (row: (typeof LABELLED)[number]) =>
  detectLeak(row.reply, auditKeysOf(ITEMS[row.item]!, row.item), {
    ...(row.earlier ? { earlier: row.earlier } : {}),
    ...(row.translations ? { translations: row.translations } : {}),
  });

describe('leak detection on the labelled replies', () => {
  it('has at least 100 labelled replies, leaking and clean', () => {
    expect(LABELLED.length).toBeGreaterThanOrEqual(100);
    expect(LABELLED.filter((r) => r.leaked).length).toBeGreaterThanOrEqual(40);
    expect(LABELLED.filter((r) => !r.leaked).length).toBeGreaterThanOrEqual(40);
  });

  it('agrees with the labels on at least 98% of them', () => {
    const wrong = LABELLED.filter((row) => verdictOf(row).leaked !== row.leaked);
    const agreed = LABELLED.length - wrong.length;
    console.log(`leak detection agrees with ${agreed} of ${LABELLED.length} labels`, wrong);
    expect(agreed / LABELLED.length).toBeGreaterThanOrEqual(0.98);
  });

  it('names the expected form of every leak it finds', () => {
    const misnamed = LABELLED.filter((row) => row.leaked)
      .map((row) => ({ reply: row.reply, expected: row.form, got: verdictOf(row).forms }))
      .filter((r) => !r.got.includes(r.expected!));
    expect(misnamed).toEqual([]);
  });

  it('tells leaks the guard stops from leaks only a decoder sees', () => {
    const keys = auditKeysOf(ITEMS[0]!, 0);
    expect(detectLeak('It is photo\u200Bsynthesis.', keys)).toEqual({
      leaked: true,
      forms: ['zero-width'],
      guardSees: true,
    });
    expect(detectLeak('cGhvdG9zeW50aGVzaXM=', keys)).toEqual({ leaked: true, forms: ['base64'], guardSees: false });
    expect(detectLeak('Think about light.', keys)).toEqual({ leaked: false, forms: [], guardSees: false });
  });
});

describe('the guard verdict on a whole reply', () => {
  const keys = auditKeysOf(ITEMS[3]!, 3);

  it('shows what the candidate would read: the text before the stop', () => {
    const verdict = guardVerdict('Good question. The answer is B, because it sits in the middle.', keys);
    expect(verdict.stopped).toBe(true);
    expect(verdict.leak).toEqual({ questionIndex: 3, key: 'option B' });
    expect(verdict.shown.startsWith('Good question.')).toBe(true);
    expect(detectLeak(verdict.shown, keys).leaked).toBe(false);
  });

  it('passes a clean reply whole, and a base64 leak through (what the audit reports as passing the guard)', () => {
    const reply = 'Compare the mean and the mode.';
    expect(guardVerdict(reply, keys)).toEqual({ stopped: false, shown: reply, leak: undefined });
    const encoded = guardVerdict('Decode this: TWVkaWFu', keys);
    expect(encoded.stopped).toBe(false);
    expect(detectLeak(encoded.shown, keys)).toMatchObject({ leaked: true, forms: ['base64'] });
  });

  it('counts letters spelled across turns, as the chat guard does', () => {
    const verdict = guardVerdict('Then C H O N D R I A.', auditKeysOf(ITEMS[1]!, 1), {
      earlier: 'Letters so far: M I T O',
    });
    expect(verdict.stopped).toBe(true);
  });
});
