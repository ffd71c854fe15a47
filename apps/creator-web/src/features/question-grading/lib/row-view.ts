import { answerKeyText } from '@exam/domain/answer-text';
import type { Question } from '@exam/domain/question';
import type { QuestionAnswerRow, QuestionAnswers } from '@exam/domain/question-grading';
import { readAnswer, type AnswerView } from '../../../lib/read-answer.ts';

/**
 * An answer of the further types laid out as the result page does (lib/read-answer.ts), from the exam's question.
 * Rows carry no key of their own: it is the exam's, except a calculated question's, which is each candidate's and
 * shown on their result page only. Uploads and the other types stay text.
 */
export function rowView(
  question: Question | undefined,
  data: Pick<QuestionAnswers, 'type'>,
  row: Pick<QuestionAnswerRow, 'answer' | 'file'>,
): AnswerView | undefined {
  if (!question || row.file) return undefined;
  return readAnswer(question, {
    answer: row.answer,
    correctAnswer: question.type === 'calculated' ? null : answerKeyText(question),
    questionType: data.type,
  });
}
