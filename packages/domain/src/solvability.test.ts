import { describe, expect, it } from 'vitest';
import { itemVerdict, StartSolvabilityCheckSchema } from './solvability.ts';

describe('itemVerdict', () => {
  it('gives away when any reply named the key, whatever the others did', () => {
    expect(itemVerdict(['none', 'withheld', 'answer'])).toBe('gives-away');
  });
  it('hints when the guardrail had to stop a reply and none named the key', () => {
    expect(itemVerdict(['none', 'withheld'])).toBe('hints');
  });
  it('holds when replies were judged and none named or tried to name the key', () => {
    expect(itemVerdict(['none', 'error'])).toBe('holds');
  });
  it('is not judged with only failed or unjudgeable replies, or none', () => {
    expect(itemVerdict(['error', 'error'])).toBe('not-judged');
    expect(itemVerdict(['not-judged'])).toBe('not-judged');
    expect(itemVerdict([])).toBe('not-judged');
  });
});

describe('StartSolvabilityCheckSchema', () => {
  it('defaults to three phrasings and refuses more than five or unknown fields', () => {
    expect(StartSolvabilityCheckSchema.parse({})).toEqual({ phrasingsPerQuestion: 3, compareWith: [] });
    expect(StartSolvabilityCheckSchema.safeParse({ phrasingsPerQuestion: 6 }).success).toBe(false);
    expect(StartSolvabilityCheckSchema.safeParse({ budget: 1 }).success).toBe(false);
  });
});
