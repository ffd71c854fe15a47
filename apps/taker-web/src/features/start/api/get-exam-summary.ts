import { useQuery } from '@tanstack/react-query';
import { getPublicExam } from '../../../lib/exam-api.ts';

/**
 * The live exam's public summary (GET /api/public/exams/{id}): its window, its sections and whether the assistant
 * is sometimes wrong on purpose. One query for the details page and the briefing, so it is read once.
 */
export function useExamSummary(examId: string) {
  return useQuery({
    queryKey: ['exam-summary', examId],
    queryFn: () => getPublicExam(examId),
    retry: false,
  });
}
