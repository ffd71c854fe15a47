import type { CreatorClaims } from '@exam/domain/auth';
import { notFound } from '@exam/domain/errors';
import type { GradingSuggestion } from '@exam/domain/question-grading';
import { suggestAnswer, type SuggestDeps } from './suggest-answer.ts';
import type { FindAnswer } from './suggestion-batch.runner.ts';

/** One answer's suggestion, asked from the grading view (docs/product.md#ai-suggested-marks). */
export function createSuggestionsService(deps: SuggestDeps & { findAnswer: FindAnswer }) {
  return {
    /** 404 for another creator's result, or a question the result does not have. */
    async suggest(
      creator: CreatorClaims,
      resultId: string,
      examQuestionIndex: number,
      samples: number,
    ): Promise<GradingSuggestion> {
      const answer = await deps.findAnswer(creator.sub, resultId, examQuestionIndex);
      if (!answer) throw notFound('Result');
      return suggestAnswer(answer, samples, deps);
    },
  };
}
export type SuggestionsService = ReturnType<typeof createSuggestionsService>;
