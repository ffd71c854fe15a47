import { ExamSchema, type Exam } from '@exam/domain/exam';
import { InsightsReportSchema, type InsightsModelRequest, type InsightsReport } from '@exam/domain/insights';
import { ExamAiUsageSchema, type ExamAiUsage } from '@exam/domain/llm';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export const insightsKeys = {
  all: ['insights'] as const,
  report: (examId: string, model: InsightsModelRequest = 'auto') =>
    [...insightsKeys.all, 'report', examId, model] as const,
  exam: (examId: string) => [...insightsKeys.all, 'exam', examId] as const,
  aiUsage: (examId: string) => [...insightsKeys.all, 'ai-usage', examId] as const,
};

/** GET /api/exams/{examId} (exam-service): title, publish date and question titles. */
export function getInsightsExam(examId: string): Promise<Exam> {
  return apiRequest(api.exam(examId), { schema: ExamSchema });
}

/** GET /api/exams/{examId}/insights (results-service): the psychometrics report, abilities from `model`. */
export function getInsights(examId: string, model: InsightsModelRequest = 'auto'): Promise<InsightsReport> {
  return apiRequest(api.examInsights(examId, model), { schema: InsightsReportSchema });
}

export function useInsightsExam(examId: string) {
  return useQuery({ queryKey: insightsKeys.exam(examId), queryFn: () => getInsightsExam(examId), retry: false });
}

/** Switching the model keeps the previous report on screen until the new one arrives. */
export function useInsights(examId: string, model: InsightsModelRequest = 'auto') {
  return useQuery({
    queryKey: insightsKeys.report(examId, model),
    queryFn: () => getInsights(examId, model),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/llm/exams/{examId}/usage (llm-gateway): the assistant's spend, last hour and in total. */
export function getExamAiUsage(examId: string): Promise<ExamAiUsage> {
  return apiRequest(api.examAiUsage(examId), { schema: ExamAiUsageSchema });
}

/** Refreshed every minute while the page is open: the last hour slides. */
export function useExamAiUsage(examId: string) {
  return useQuery({
    queryKey: insightsKeys.aiUsage(examId),
    queryFn: () => getExamAiUsage(examId),
    refetchInterval: 60_000,
  });
}
