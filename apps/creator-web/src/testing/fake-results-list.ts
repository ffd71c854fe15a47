import { RESULTS_PAGE_DEFAULT, ResultListSchema, type ResultList, type ResultSummary } from '@exam/domain/result';
import { http, HttpResponse } from 'msw';

/**
 * GET /api/results as results-service answers it: the same filters, newest submission first with ties
 * by id, pages of `limit` and an opaque cursor. Keeps each request's query so tests can check what the
 * app asked for.
 */
export function fakeResultList(all: ResultSummary[]) {
  const requests: URLSearchParams[] = [];
  const handler = http.get('*/api/results', ({ request }) => {
    const query = new URL(request.url).searchParams;
    requests.push(query);
    const needle = query.get('search')?.trim().toLowerCase();
    const graded = query.get('graded');
    const matching = all
      .filter((r) => !query.get('examId') || r.examId === query.get('examId'))
      .filter((r) => !query.get('studentId') || r.studentId === query.get('studentId'))
      .filter((r) => !graded || r.isGraded === (graded === 'true'))
      .filter(
        (r) => !needle || [r.userName, r.studentId, r.examTitle].some((field) => field.toLowerCase().includes(needle)),
      )
      .sort((a, b) => Date.parse(b.completedAt) - Date.parse(a.completedAt) || (a.id < b.id ? 1 : -1));
    const cursor = query.get('cursor');
    const start = cursor ? matching.findIndex((r) => r.id === atob(cursor)) + 1 : 0;
    const limit = Number(query.get('limit') ?? RESULTS_PAGE_DEFAULT);
    const page = matching.slice(start, start + limit);
    const last = page.at(-1);
    const body: ResultList = ResultListSchema.parse({
      results: page,
      nextCursor: start + limit < matching.length && last ? btoa(last.id) : null,
    });
    return HttpResponse.json(body);
  });
  return { handler, requests };
}
