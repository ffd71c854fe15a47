import type { Question } from './question.ts';

/** Short answers match case- and space-insensitively. */
export function normalizeShortAnswer(value: string): string {
  return value.toLowerCase().replace(/\s+/g, '');
}

/** Whether a question is scored automatically; file and coding answers wait for a grader. */
export function isAutoScored(q: Pick<Question, 'type'>): boolean {
  return q.type === 'mcq' || q.type === 'short-answer';
}

/** true/false for auto-scored questions, undefined when a grader must decide. */
export function autoScore(q: Question, answer: string | undefined): boolean | undefined {
  if (!isAutoScored(q)) return undefined;
  if (answer === undefined || answer === '') return false;
  if (q.type === 'mcq') return q.correctAnswer !== undefined && answer === q.correctAnswer;
  const given = normalizeShortAnswer(answer);
  return q.acceptedAnswers.some((a) => normalizeShortAnswer(a) === given && given !== '');
}

export function isAnswered(answer: string | undefined): boolean {
  return answer !== undefined && answer.trim() !== '';
}
