import { decodeChoices } from '@exam/domain/grading';
import type { Verdict } from '@exam/domain/practice';
import type { Question } from '@exam/domain/question';

type FeedbackSource = Pick<Question, 'type' | 'options' | 'multipleAnswers' | 'feedback' | 'optionFeedback'>;

/** The options the candidate chose, by index into `options` (true/false: 0 for true, 1 for false). */
function chosenOptions(q: FeedbackSource, answer: string | null | undefined): number[] {
  if (!answer) return [];
  if (q.type === 'true-false') return answer === 'true' ? [0] : answer === 'false' ? [1] : [];
  if (q.type !== 'mcq') return [];
  const chosen = q.multipleAnswers ? decodeChoices(answer) : [answer];
  return chosen.map((c) => q.options.indexOf(c)).filter((i) => i >= 0);
}

/**
 * The creator's feedback for an answer (@exam/domain/question-kinds QuestionFeedback), in the order the candidate
 * reads it: the general feedback, then the verdict's (partial falls back to incorrect when empty), then the chosen
 * options' own. Blank texts are left out. An unanswered or ungraded question gets the general feedback only: no
 * verdict was earned to comment on.
 */
export function creatorFeedback(q: FeedbackSource, answer: string | null | undefined, verdict: Verdict): string[] {
  const byVerdict =
    verdict === 'correct'
      ? q.feedback.correct
      : verdict === 'partial'
        ? q.feedback.partial.trim() || q.feedback.incorrect
        : verdict === 'incorrect'
          ? q.feedback.incorrect
          : '';
  const options = verdict === 'unanswered' ? [] : chosenOptions(q, answer).map((i) => q.optionFeedback[i] ?? '');
  return [q.feedback.general, byVerdict, ...options].filter((text) => text.trim() !== '');
}
