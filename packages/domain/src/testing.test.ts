import { describe, expect, it } from 'vitest';
import { buildInternalExam } from './testing.ts';

describe('buildInternalExam', () => {
  it('builds a published, live exam that the internal contract accepts, with fresh ids', () => {
    const a = buildInternalExam();
    const b = buildInternalExam();
    expect(a.isLive).toBe(true);
    expect(a.isDraft).toBe(false);
    expect(a.id).not.toBe(b.id);
  });

  it('refuses overrides that break the contract', () => {
    expect(() => buildInternalExam({ questions: [{ id: 'q1', type: 'essay' }] })).toThrow();
  });
});
