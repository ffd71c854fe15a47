import { z } from 'zod';
import { InstantSchema } from './cohort.ts';
import { PublicQuestionSchema } from './question.ts';
import { PublicPassageSchema } from './passages.ts';
export { PracticeMessages } from './candidate-messages.ts';

/**
 * Practice exams and the review window (docs/product.md#practice-and-review).
 *
 * A practice exam (`practice: true`) may be sat any number of times (attemptsAllowed is not applied), each answer
 * can be checked while the candidate works (the server scores it with the one scoring module and answers with the
 * creator's feedback), and its attempts never count: they are left out of insights, the gradebook and the CSV's
 * gradebook format, and LTI grade passback is off for them. Results of a practice exam are still listed for the
 * creator, marked as practice.
 *
 * A real exam can open a review window (`review`) after a result is released: while it is open the candidate sees
 * each question, their answer, their points, the creator's feedback and (when showAnswerKeys is on) the key.
 */

export const ReviewWindowSchema = z.object({
  enabled: z.boolean().default(false),
  /** When the review closes for everyone; null: it stays open once a result is released. */
  closesAt: InstantSchema.nullable().default(null),
  /** Show the creator's feedback (general, correct/partial/incorrect, per option) in the review. */
  showFeedback: z.boolean().default(true),
});
export type ReviewWindow = z.infer<typeof ReviewWindowSchema>;
export const DEFAULT_REVIEW: ReviewWindow = { enabled: false, closesAt: null, showFeedback: true };

/** A review that closes before the exam opens could never be seen: its close must come after the opening. */
export function reviewWindowIssue(exam: {
  opensAt?: string | null | undefined;
  review?: Pick<ReviewWindow, 'closesAt'> | undefined;
}): { path: string[]; message: string } | null {
  const closesAt = exam.review?.closesAt;
  if (!exam.opensAt || !closesAt) return null;
  return Date.parse(closesAt) <= Date.parse(exam.opensAt)
    ? { path: ['review', 'closesAt'], message: 'The review must close after the exam opens' }
    : null;
}

/** How far an answer earned its points, as the candidate is told. */
export const VERDICTS = ['correct', 'partial', 'incorrect', 'unanswered', 'ungraded'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** The verdict for points of maxPoints; null points: a person grades this question (essay, file, coding). */
export function verdictOf(points: number | null, maxPoints: number, answered: boolean): Verdict {
  if (!answered) return 'unanswered';
  if (points === null) return 'ungraded';
  if (points >= maxPoints) return 'correct';
  return points > 0 ? 'partial' : 'incorrect';
}

/** POST /api/attempts/{id}/questions/{questionIndex}/check (practice exams only; candidate's token). */
export const PracticeCheckParamsSchema = z.object({
  id: z.string().min(1).max(64),
  questionIndex: z.coerce.number().int().min(0).max(499),
});
/**
 * The answer as it stands in the candidate's page (it is saved first, as a save would), with the page's seq for the
 * question (SaveAnswerSchema's): the check's save then never outranks the page's later saves, so nothing typed after
 * it is lost, and the page's own save of the same seq still brings the edit operations (the timeline).
 */
export const PracticeCheckBodySchema = z.object({
  answer: z.string().max(200_000),
  seq: z.number().int().nonnegative(),
});
export type PracticeCheckBody = z.infer<typeof PracticeCheckBodySchema>;

export const PracticeCheckSchema = z.object({
  questionIndex: z.number().int(),
  verdict: z.enum(VERDICTS),
  points: z.number().nullable(),
  maxPoints: z.number(),
  /** The creator's feedback for this answer: general first, then the verdict's, then the chosen option's. */
  feedback: z.array(z.string()),
  /** The key as people read it, when the exam shows keys (showAnswerKeys); null otherwise. */
  correctAnswer: z.string().nullable(),
  /** Fill in the blanks and matching: right or wrong per gap or prompt, in order; null for other types. */
  parts: z.array(z.boolean()).nullable(),
});
export type PracticeCheck = z.infer<typeof PracticeCheckSchema>;

/** GET /api/attempts/{id}/review (candidate's token): the released attempt as the candidate may see it again. */
export const ReviewSchema = z.object({
  examTitle: z.string(),
  userName: z.string(),
  score: z.number(),
  maxScore: z.number(),
  percentage: z.number(),
  releasedAt: z.string(),
  closesAt: z.string().nullable(),
  passages: z.array(PublicPassageSchema),
  questions: z.array(
    z.object({
      question: PublicQuestionSchema,
      answer: z.string(),
      points: z.number().nullable(),
      maxPoints: z.number(),
      verdict: z.enum(VERDICTS),
      /** The grader's feedback for this answer. */
      graderFeedback: z.string(),
      /** The creator's feedback (when the review shows it), as in PracticeCheck. */
      feedback: z.array(z.string()),
      correctAnswer: z.string().nullable(),
      parts: z.array(z.boolean()).nullable(),
    }),
  ),
});
export type Review = z.infer<typeof ReviewSchema>;
