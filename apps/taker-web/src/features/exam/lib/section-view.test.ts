import { describe, expect, it } from 'vitest';
import { buildPublicExam, buildQuestion } from '../../../testing/factories.ts';
import { lockedQuestions, previewExamAt, previewPosition, sectionGroups, totalQuestions } from './section-view.ts';

const section = (id: string, assistant: boolean, questionCount: number) => ({
  id,
  title: id.toUpperCase(),
  assistant,
  timeLimitMinutes: null,
  questionCount,
});

// Unaided, unaided, aided: leaving either unaided section locks it (a later section has the assistant).
const exam = buildPublicExam({
  sections: [section('a', false, 1), section('b', false, 2), section('c', true, 1)],
  questions: [
    buildQuestion({ title: 'c1', sectionId: 'c' }),
    buildQuestion({ title: 'a1', sectionId: 'a' }),
    buildQuestion({ title: 'b1', sectionId: 'b' }),
    buildQuestion({ title: 'none', sectionId: null }),
  ],
});

describe('section views', () => {
  it('puts the preview in section order, with only the sections reached', () => {
    expect(previewExamAt(exam, 0).questions.map((q) => q.title)).toEqual(['a1', 'none']);
    expect(previewExamAt(exam, 1).questions.map((q) => q.title)).toEqual(['a1', 'none', 'b1']);
    expect(previewExamAt(exam, 2).questions.map((q) => q.title)).toEqual(['a1', 'none', 'b1', 'c1']);
  });

  it("applies the server's rules in the preview: locked sections and the assistant", () => {
    expect(previewPosition(exam.sections, 0)).toEqual({ current: 0, locked: [], assistant: false, deadline: null });
    expect(previewPosition(exam.sections, 2)).toEqual({ current: 2, locked: [0, 1], assistant: true, deadline: null });
  });

  it('groups the questions by section, a question naming none in the first, and says where each stands', () => {
    const view = previewExamAt(exam, 2);
    const groups = sectionGroups(view, previewPosition(view.sections, 2));
    expect(groups.map((g) => [g.section.id, g.standing, g.questions])).toEqual([
      ['a', 'locked', [0, 1]],
      ['b', 'locked', [2]],
      ['c', 'current', [3]],
    ]);
    expect([...lockedQuestions(view, previewPosition(view.sections, 2))]).toEqual([0, 1, 2]);
    // Without a later assistant, a section left behind stays open.
    const open = { ...view, sections: view.sections.map((s) => ({ ...s, assistant: false })) };
    const position = previewPosition(open.sections, 1);
    expect(sectionGroups(open, position).map((g) => g.standing)).toEqual(['left', 'current', 'upcoming']);
    expect(lockedQuestions(open, position).size).toBe(0);
  });

  it("counts every section's questions, reached or not", () => {
    expect(totalQuestions(previewExamAt(exam, 0))).toBe(4);
    expect(totalQuestions(buildPublicExam({ questions: [buildQuestion(), buildQuestion()] }))).toBe(2);
  });
});
