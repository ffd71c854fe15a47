import type { AppModule } from '../../module-context.ts';
import { createIsolatedRunner } from '@exam/server-kit/isolated-worker';
import { createAnswerFileTexts, isolatedDocumentText } from './answer-file-texts.ts';
import { createResultWritesRepository } from '../grading/result-writes.repository.ts';
import { createQuestionAnswersReader, type QuestionAnswersReader } from './question-answers.repository.ts';
import { createQuestionGradingRepository } from './question-grading.repository.ts';
import { questionGradingRoutes } from './question-grading.routes.ts';
import { createQuestionGradingService } from './question-grading.service.ts';

declare module '../../module-context.ts' {
  interface Provided {
    /** Every answer to one question of an exam (the exam's numbering), with its grade: AI suggestions read them too. */
    questionAnswers: QuestionAnswersReader;
  }
}

/** Grading by question (docs/product.md#grading-by-question): a question's answers, their groups, marks given to many. */
export const questionGradingModule: AppModule = async (app, { config, deps, provide }) => {
  // Uploaded answers are parsed in worker threads with heap and time limits (ARCHITECTURE.md "Reading uploaded files").
  const isolated = createIsolatedRunner({
    timeoutMs: config.PARSE_TIMEOUT_SECONDS * 1000,
    maxHeapMb: config.PARSE_MAX_HEAP_MB,
    concurrency: config.PARSE_CONCURRENCY,
  });
  app.addHook('onClose', () => isolated.close());
  const fileTexts = createAnswerFileTexts(isolatedDocumentText(isolated, config.ANSWER_FILE_MAX_DECOMPRESSED_BYTES));
  const reader = createQuestionAnswersReader(deps.database, deps, fileTexts);
  provide('questionAnswers', reader);
  const service = createQuestionGradingService(
    reader,
    createQuestionGradingRepository(deps.database),
    createResultWritesRepository(deps.database),
    deps,
    app.log,
  );
  await app.register(questionGradingRoutes(service));
};
