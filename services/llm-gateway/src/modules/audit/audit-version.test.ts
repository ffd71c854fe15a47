import { describe, expect, it } from 'vitest';
import { makeExam } from '../../testing/exams.ts';
import { auditVersionOf } from './audit-version.ts';

describe('auditVersionOf', () => {
  it('changes with what the assistant is told and stays with what it is not', () => {
    const exam = makeExam();
    const version = auditVersionOf(exam);
    expect(auditVersionOf({ ...exam, title: 'Another title', timerMinutes: exam.timerMinutes + 5 })).toBe(version);
    expect(auditVersionOf({ ...exam, aiSettings: { ...exam.aiSettings, apiKeyLast4: 'zzzz' } })).toBe(version);
    expect(
      auditVersionOf({ ...exam, aiSettings: { ...exam.aiSettings, customPrompt: 'Never give answers.' } }),
    ).not.toBe(version);
    expect(auditVersionOf({ ...exam, aiSettings: { ...exam.aiSettings, model: 'gpt-4o' } })).not.toBe(version);
    expect(auditVersionOf({ ...exam, materialTexts: [{ name: 'notes.txt', text: 'Means and medians.' }] })).not.toBe(
      version,
    );
  });
});
