import { GradingAgreementSchema, type GradingAgreement } from '@exam/domain/question-grading';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { questionGradingKeys } from './get-question-answers.ts';

/**
 * GET /api/exams/{examId}/grading/agreement (results-service): per question with suggestions, how far they agree
 * with the graders' marks. The insights page reads this route rather than the insights report: the report does
 * not carry the figures, and marking refreshes this one key.
 */
export function getGradingAgreement(examId: string): Promise<GradingAgreement> {
  return apiRequest(api.gradingAgreement(examId), { schema: GradingAgreementSchema });
}

export function useGradingAgreement(examId: string) {
  return useQuery({ queryKey: questionGradingKeys.agreement(examId), queryFn: () => getGradingAgreement(examId) });
}
