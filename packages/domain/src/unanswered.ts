import { z } from 'zod';
import { decodeChoices, type ScorableQuestion } from './grading.ts';
import { TRUE_FALSE, decodeBlanks, decodeMatches, decodeOrder } from './question-kinds.ts';

/**
 * Unanswered questions (docs/product.md#results-and-grading): what counts as no answer, per question type, and
 * what the exam does with one. Under 'zero' (the default, and how exams stored before the setting read) a question
 * left unanswered scores 0 at submission, marked so for the grader, who may still override it; under 'grader' a
 * question no key can score waits for a grader as any other. A question with a key scores 0 for no answer under
 * either policy: the key decides.
 */
export const UNANSWERED_POLICIES = ['zero', 'grader'] as const;
export const UnansweredPolicySchema = z.enum(UNANSWERED_POLICIES);
export type UnansweredPolicy = z.infer<typeof UnansweredPolicySchema>;
export const DEFAULT_UNANSWERED_POLICY: UnansweredPolicy = 'zero';

/** The words the grader reads beside a question scored 0 because it was left unanswered. */
export const UNANSWERED_MARKER = 'Unanswered — scored 0 automatically';

/** The fields of a question that deciding "unanswered" reads. */
export type AnswerableQuestion = Pick<ScorableQuestion, 'type' | 'multipleAnswers' | 'pairs' | 'blanks'> & {
  /** Coding: the code the editor starts with; an answer equal to it was never touched. */
  starterCode?: string | undefined;
  /** Coding with a workspace: the answer may be a file of the workspace, which the stored answer does not show. */
  workspaceFile?: string | null | undefined;
  /** An agentic task: the answer is the candidate's repository in the workspace. */
  repository?: object | null | undefined;
};

/** Code compared for "untouched": line endings and trailing whitespace per line do not count as an edit. */
const sameCode = (a: string, b: string) => {
  const norm = (s: string) =>
    s
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')
      .trim();
  return norm(a) === norm(b);
};

/**
 * Whether the candidate left the question unanswered. Blank text (short answer, numeric, essay), no file uploaded,
 * no option chosen, no order, match or gap given, and code equal to the starter code are all unanswered. A coding
 * question whose answer may live in the workspace (a workspace file or an agentic repository) is never judged from
 * the stored answer alone: the tests or a grader decide it.
 */
export function isUnanswered(q: AnswerableQuestion, answer: string | null | undefined): boolean {
  const value = answer ?? '';
  if (q.type === 'coding') {
    if (q.workspaceFile || q.repository) return false;
    return value.trim() === '' || sameCode(value, q.starterCode ?? '');
  }
  if (value.trim() === '') return true;
  switch (q.type) {
    case 'mcq':
      return q.multipleAnswers && decodeChoices(value).length === 0;
    case 'true-false':
      return !(TRUE_FALSE as readonly string[]).includes(value);
    case 'ordering':
      return decodeOrder(value).length === 0;
    case 'matching':
      return decodeMatches(value, q.pairs?.length ?? 0).every((v) => v.trim() === '');
    case 'fill-blanks':
      return decodeBlanks(value, q.blanks?.length ?? 0).every((v) => v.trim() === '');
    default:
      // Short answer, numeric, calculated, essay and a file upload ('File: name' once a file is stored).
      return false;
  }
}

/** The questions an exam under `policy` scores 0 for being unanswered, by index. Empty under 'grader'. */
export function unansweredToZero(
  questions: ReadonlyArray<AnswerableQuestion>,
  answers: ReadonlyArray<string | null | undefined>,
  policy: UnansweredPolicy | undefined,
): Set<number> {
  if ((policy ?? DEFAULT_UNANSWERED_POLICY) !== 'zero') return new Set();
  return new Set(questions.flatMap((q, i) => (isUnanswered(q, answers[i]) ? [i] : [])));
}
