import type { AppModule } from '../../module-context.ts';
import { createAnswerFileTexts } from './answer-file-texts.ts';
import { createQuestionAnswersReader, type QuestionAnswersReader } from './question-answers.repository.ts';

declare module '../../module-context.ts' {
  interface Provided {
    /** Every answer to one question of an exam (the exam's numbering), with its grade: AI suggestions read them too. */
    questionAnswers: QuestionAnswersReader;
  }
}

/** Grading by question (docs/product.md#grading-by-question): a question's answers, their groups, marks given to many. */
export const questionGradingModule: AppModule = async (_app, { deps, provide }) => {
  const reader = createQuestionAnswersReader(deps.database, deps, createAnswerFileTexts());
  provide('questionAnswers', reader);
};
