import type { AppModule } from '../../module-context.ts';
import {
  textToGrade,
  type QuestionAnswersReader,
  type SubmittedAnswer,
} from '../question-grading/question-answers.repository.ts';
import { candidateIdentifiers } from './candidate-masking.ts';
import { createGradingAgreementRepository } from './grading-agreement.repository.ts';
import { createGradingAgreementService, type GradingAgreementService } from './grading-agreement.service.ts';
import type { AnswerToSuggest } from './suggest-answer.ts';
import { createSuggestionBatchesRepository } from './suggestion-batches.repository.ts';
import { createSuggestionBatchesService, type SuggestionBatchesService } from './suggestion-batches.service.ts';
import { createSuggestionsRepository } from './suggestions.repository.ts';
import { suggestionsRoutes } from './suggestions.routes.ts';
import { createSuggestionsService } from './suggestions.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The suggestion batches: server.ts runs `pass` as a job (jobs/suggestion-batches.ts), tests drive it directly. */
    suggestionBatches: SuggestionBatchesService;
  }
}

declare module '../../module-context.ts' {
  interface Provided {
    /** The suggestions' agreement with the graders: insights show the same figures. */
    gradingAgreement: GradingAgreementService;
  }
}

/**
 * A question's answer as a suggestion reads it. A coding question graded by tests may still carry a rubric a grader
 * ticks (docs/product.md#ai-suggested-marks): its criteria are suggested too.
 */
function toSuggestible(answer: SubmittedAnswer, ownerId: string): AnswerToSuggest & { marked: boolean } {
  const { text, answerHash } = textToGrade(answer);
  return {
    resultId: answer.resultId,
    examId: answer.examId,
    ownerId,
    examQuestionIndex: answer.examQuestionIndex,
    question: answer.question,
    rubric: answer.rubric,
    humanGraded: answer.humanGraded || (answer.question.type === 'coding' && answer.rubric !== null),
    text,
    answerHash,
    identifiers: candidateIdentifiers(answer.candidate, answer.identifiers),
    marked: answer.grade.manual,
  };
}

function answersFrom(reader: QuestionAnswersReader) {
  return {
    findAnswer: async (ownerId: string, resultId: string, examQuestionIndex: number) => {
      const answer = await reader.findQuestionAnswer(resultId, ownerId, examQuestionIndex);
      return answer && toSuggestible(answer, ownerId);
    },
    listAnswers: async (ownerId: string, examId: string, examQuestionIndex: number) => {
      const read = await reader.listQuestionAnswers(examId, ownerId, examQuestionIndex);
      const answers = read.answers.map((a) => toSuggestible(a, ownerId));
      const codingRubric = read.question.type === 'coding' && read.rubric !== null;
      return { humanGraded: read.humanGraded || codingRubric, answers };
    },
  };
}

/** AI-suggested marks (one answer, or a batch over a question) and their agreement with the graders. */
export const suggestionsModule: AppModule = async (app, { config, deps, use, provide }) => {
  const suggestionsRepo = createSuggestionsRepository(deps.database);
  const batchesRepo = createSuggestionBatchesRepository(deps.database);
  const { findAnswer, listAnswers } = answersFrom(use('questionAnswers'));
  const agreement = createGradingAgreementService(createGradingAgreementRepository(deps.database), deps);
  provide('gradingAgreement', agreement);
  const suggestions = createSuggestionsService({ ...deps, repo: suggestionsRepo, findAnswer });
  const batches = createSuggestionBatchesService(
    {
      ...deps,
      batches: batchesRepo,
      suggestions: suggestionsRepo,
      findAnswer,
      listAnswers,
      log: app.log,
    },
    { leaseMs: config.SUGGESTION_BATCH_LEASE_MS, heartbeatMs: config.SUGGESTION_BATCH_HEARTBEAT_MS },
  );
  app.decorate('suggestionBatches', batches);
  app.addHook('onClose', () => batches.close());
  await app.register(suggestionsRoutes({ suggestions, batches, agreement }));
};
