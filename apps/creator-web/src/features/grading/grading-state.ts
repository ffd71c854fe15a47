import type { BadgeTone } from '@exam/ui/badge';
import type { GradingEntry, ResultDetail } from '@exam/domain/result';
import { formatDate } from '../../lib/format-date.ts';

/** One question's grade as the grader edits it. */
export type QuestionGrade = { isGraded: boolean; isCorrect: boolean | null; feedback: string };

export function gradesOf(detail: Pick<ResultDetail, 'questionAnswers'>): QuestionGrade[] {
  return detail.questionAnswers.map((qa) => ({
    isGraded: qa.isGraded,
    isCorrect: qa.isGraded ? qa.isCorrect : null,
    feedback: qa.feedback,
  }));
}

/** The PATCH body's grading entries: every question, so a save is idempotent. */
export function toEntries(grades: readonly QuestionGrade[]): GradingEntry[] {
  return grades.map((g, questionIndex) => ({
    questionIndex,
    isGraded: g.isGraded,
    isCorrect: g.isGraded ? g.isCorrect : null,
    feedback: g.feedback,
  }));
}

/** Correct or Incorrect; choosing the verdict the question already has unchecks it back to ungraded. */
export function toggleVerdict(grade: QuestionGrade, isCorrect: boolean): QuestionGrade {
  if (grade.isGraded && grade.isCorrect === isCorrect) return { ...grade, isGraded: false, isCorrect: null };
  return { ...grade, isGraded: true, isCorrect };
}

/** On the grader page typing feedback also marks the question graded: feedback is a grading decision. */
export function withFeedback(grade: QuestionGrade, feedback: string, marksGraded: boolean): QuestionGrade {
  return marksGraded ? { ...grade, feedback, isGraded: true } : { ...grade, feedback };
}

export function tally(grades: readonly QuestionGrade[]) {
  const graded = grades.filter((g) => g.isGraded).length;
  const correct = grades.filter((g) => g.isGraded && g.isCorrect === true).length;
  return { graded, correct, total: grades.length, allGraded: graded === grades.length };
}

export type ScoreBadge = { text: string; tone: BadgeTone };

/**
 * The result screen's score badge: 'Not Graded', 'X/Y correct', 'X/Y correct (unsaved)'
 * or 'N correct (graded date)'; above 80 % green, above 60 % yellow, otherwise red, blue while unsaved.
 */
export function resultScoreBadge(
  grades: readonly QuestionGrade[],
  saved: { unsaved: boolean; isGraded: boolean; gradedAt: string | null },
): ScoreBadge {
  const { graded, correct, total } = tally(grades);
  if (saved.unsaved) return { text: `${correct}/${total} correct (unsaved)`, tone: 'info' };
  if (graded === 0) return { text: 'Not Graded', tone: 'neutral' };
  const percent = total === 0 ? 0 : (100 * correct) / total;
  const tone: BadgeTone = percent > 80 ? 'success' : percent > 60 ? 'warning' : 'danger';
  if (saved.isGraded && saved.gradedAt)
    return { text: `${correct} correct (graded ${formatDate(saved.gradedAt)})`, tone };
  return { text: `${correct}/${total} correct`, tone };
}
