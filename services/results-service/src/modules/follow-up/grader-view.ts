import type { FollowUpForGrader } from '@exam/domain/follow-up';
import type { StoredFollowUp } from './follow-up.repository.ts';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * A follow-up as a grader reads it (FollowUpForGrader): each question beside the exam's own number of the question
 * it probes, the candidate's answer, and its mark on the rubric copied at submission. Points are their own figure,
 * never added to the exam's score: awarded over the marked questions, of the most the asked ones can give.
 */
export function graderView(stored: StoredFollowUp | undefined): FollowUpForGrader {
  if (!stored)
    return { status: 'off', note: null, rubric: [], questions: [], points: { awarded: 0, max: 0, marked: 0 } };
  const { followUp, questions } = stored;
  const best = Math.max(0, ...followUp.rubric.map((level) => level.points));
  const marked = questions.filter((q) => q.markLevel !== null);
  return {
    status: followUp.status,
    note: followUp.note,
    rubric: followUp.rubric,
    questions: questions.map((q) => ({
      n: q.n,
      questionIndex: q.questionIndex,
      text: q.text,
      answer: q.answer,
      askedAt: iso(q.askedAt),
      answeredAt: iso(q.answeredAt),
      timedOut: q.timedOut,
      mark:
        q.markLevel !== null && q.markedAt
          ? {
              level: q.markLevel,
              points: q.markPoints ?? 0,
              feedback: q.feedback,
              markedAt: q.markedAt.toISOString(),
              markedBy: q.markedBy ?? '',
            }
          : null,
    })),
    points: {
      awarded: marked.reduce((sum, q) => sum + (q.markPoints ?? 0), 0),
      max: best * questions.filter((q) => q.askedAt).length,
      marked: marked.length,
    },
  };
}
