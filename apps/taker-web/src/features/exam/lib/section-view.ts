import type { PublicExam } from '@exam/domain/public-exam';
import { SectionMessages } from '@exam/domain/candidate-messages';
import { assistantOpenIn, lockedMessage, lockedSections, sectionIndexOf } from '@exam/domain/section-rules';
import type { PublicSection, SectionState } from '@exam/domain/sections';

/** Where a section stands for the candidate: done and closed, left but still open, the current one, or ahead. */
export type SectionStanding = 'locked' | 'left' | 'current' | 'upcoming';

/** One section as the navigation shows it: its questions by the candidate's numbering (none yet when ahead). */
export type SectionGroup = {
  index: number;
  section: PublicSection;
  standing: SectionStanding;
  questions: number[];
};

/** The candidate's section position: the server's (SectionState), or the preview's own, kept in the page. */
export type SectionPosition = Pick<SectionState, 'current' | 'locked' | 'assistant' | 'deadline'>;

/**
 * The preview's position at section `current`: computed with the server's own rules (sections.ts), with no
 * deadline, since a preview runs no clock.
 */
export function previewPosition(
  sections: ReadonlyArray<Pick<PublicSection, 'assistant' | 'timeLimitMinutes'>>,
  current: number,
) {
  return {
    current,
    locked: lockedSections(sections, current),
    assistant: assistantOpenIn(sections, current),
    deadline: null,
  } satisfies SectionPosition;
}

/**
 * The sections with their questions, in order. A question's index is its place in the candidate's list (what the
 * answers are saved under); questions naming no section belong to the first, as on the server.
 */
export function sectionGroups(exam: Pick<PublicExam, 'sections' | 'questions'>, position: SectionPosition) {
  const groups: SectionGroup[] = exam.sections.map((section, index) => ({
    index,
    section,
    standing: standingOf(index, position),
    questions: [],
  }));
  exam.questions.forEach((question, i) => groups[sectionIndexOf(question, exam.sections)]?.questions.push(i));
  return groups;
}

function standingOf(index: number, position: SectionPosition): SectionStanding {
  if (index === position.current) return 'current';
  if (index > position.current) return 'upcoming';
  return position.locked.includes(index) ? 'locked' : 'left';
}

/** Why a section is locked: a later section has the assistant, or its own time limit was spent (sections.ts). */
export type LockReason = 'assistant' | 'time';

/** The questions (by index) the candidate can no longer change, those of the locked sections, with why. */
export function lockedQuestions(exam: Pick<PublicExam, 'sections' | 'questions'>, position: SectionPosition) {
  const locked = new Map<number, LockReason>();
  if (exam.sections.length === 0) return locked;
  exam.questions.forEach((question, i) => {
    const section = sectionIndexOf(question, exam.sections);
    if (position.locked.includes(section))
      locked.set(i, lockedMessage(exam.sections, section) === SectionMessages.locked ? 'assistant' : 'time');
  });
  return locked;
}

/**
 * The preview's exam at section `current`: the questions of the sections reached so far, in section order, as the
 * server hands a candidate (a prefix of their list). The creator's exam may list questions in any order.
 */
export function previewExamAt(exam: PublicExam, current: number): PublicExam {
  if (exam.sections.length === 0) return exam;
  const questions = exam.questions
    .map((question, order) => ({ question, order, section: sectionIndexOf(question, exam.sections) }))
    .filter((q) => q.section <= current)
    .sort((a, b) => a.section - b.section || a.order - b.order)
    .map((q) => q.question);
  return { ...exam, questions };
}

/** How many questions the candidate gets in all: every section's count once the exam has sections. */
export function totalQuestions(exam: Pick<PublicExam, 'sections' | 'questions'>): number {
  if (exam.sections.length === 0) return exam.questions.length;
  return Math.max(
    exam.questions.length,
    exam.sections.reduce((sum, s) => sum + s.questionCount, 0),
  );
}
