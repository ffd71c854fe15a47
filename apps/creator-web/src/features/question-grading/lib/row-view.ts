import { answerKeyText } from '@exam/domain/answer-text';
import type { Question } from '@exam/domain/question';
import type { QuestionAnswerRow, QuestionAnswers } from '@exam/domain/question-grading';
import { readAnswer, type AnswerView } from '../../../lib/read-answer.ts';

/**
 * An answer of the further types laid out as the result page does (lib/read-answer.ts), from the exam's question.
 * Each row carries its candidate's own key (a calculated question's differs per candidate, with their values);
 * rows from a server that does not send it fall back to the exam's key, and a calculated question then has none.
 * Uploads and the other types stay text.
 */
export function rowView(
  question: Question | undefined,
  data: Pick<QuestionAnswers, 'type'>,
  row: Pick<QuestionAnswerRow, 'answer' | 'answerValue' | 'correctAnswer' | 'calculatedValues' | 'file'>,
): AnswerView | undefined {
  if (!question || row.file) return undefined;
  const examKey = question.type === 'calculated' ? null : answerKeyText(question);
  return readAnswer(question, {
    answer: row.answer,
    answerValue: row.answerValue,
    correctAnswer: row.correctAnswer !== undefined ? row.correctAnswer : examKey,
    calculatedValues: row.calculatedValues,
    questionType: data.type,
  });
}
