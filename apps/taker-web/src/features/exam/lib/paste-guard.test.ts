import { describe, expect, it } from 'vitest';
import { createPasteGuard } from './paste-guard.ts';

describe('paste guard', () => {
  it('blocks a paste of text that was never copied inside the exam', () => {
    expect(createPasteGuard().isAllowed('answer from a chatbot', 0)).toBe(false);
  });

  it('allows a paste that overlaps text copied inside the exam moments ago', () => {
    const guard = createPasteGuard();
    guard.rememberCopy('def reverse(s):\n    return s[::-1]', 1000);
    expect(guard.isAllowed('return s[::-1]', 2000)).toBe(true);
    expect(guard.isAllowed('# mine\ndef reverse(s):   return s[::-1]\n', 2000)).toBe(true);
  });

  it('forgets copied text after 10 seconds', () => {
    const guard = createPasteGuard();
    guard.rememberCopy('internal', 0);
    expect(guard.isAllowed('internal', 10_001)).toBe(false);
  });

  it('forgets everything when cleared', () => {
    const guard = createPasteGuard();
    guard.rememberCopy('internal', 0);
    guard.clear();
    expect(guard.isAllowed('internal', 1)).toBe(false);
  });

  it('lets an empty or whitespace-only paste through', () => {
    expect(createPasteGuard().isAllowed('  \n ', 0)).toBe(true);
  });
});
