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

  it('says where the copy a paste comes from was made, the latest overlapping one first', () => {
    const guard = createPasteGuard();
    guard.rememberCopy('Use slicing with a negative step.', 1000, 'assistant');
    guard.rememberCopy('Reverse a string', 2000);
    expect(guard.originOf('negative step', 3000)).toBe('assistant');
    expect(guard.originOf('Reverse a string', 3000)).toBe('pasted');
    guard.rememberCopy('a negative step', 4000, 'pasted');
    expect(guard.originOf('negative step', 5000)).toBe('pasted');
    expect(guard.originOf('something else', 5000)).toBeNull();
  });
});
