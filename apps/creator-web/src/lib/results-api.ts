import {
  ResultDetailSchema,
  ResultListSchema,
  type ListResultsQuery,
  type ResultDetail,
  type ResultList,
} from '@exam/domain/result';
import { api } from '../config/paths.ts';
import { apiRequest } from './api-client.ts';

/** What a results view narrows the list to; the server applies it before paging. */
export type ResultFilters = Pick<ListResultsQuery, 'examId' | 'studentId' | 'graded' | 'search'>;

/**
 * GET /api/results (results-service): one page of the creator's results, newest submission first.
 * Shared by the results views and the grader, which looks its candidate up with the same filters.
 */
export function listResultsPage(filters: ResultFilters, cursor: string | null, limit?: number): Promise<ResultList> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  if (cursor) params.set('cursor', cursor);
  if (limit) params.set('limit', String(limit));
  return apiRequest(api.results(params.toString()), { schema: ResultListSchema });
}

/** POST /api/results/{id}/lms-sync/retry: the score the LMS did not take goes out again (409 unless it failed). */
export function retryLmsSync(resultId: string): Promise<ResultDetail> {
  return apiRequest(api.resultLmsRetry(resultId), { method: 'POST', schema: ResultDetailSchema });
}
