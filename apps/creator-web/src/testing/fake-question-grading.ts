import {
  DetachAnswerSchema,
  type AnswerGroups,
  QuestionMarkSchema,
  type DetachAnswer,
  type GradingSuggestion,
  type QuestionAgreement,
  type QuestionAnswers,
  type QuestionMark,
  type StartSuggestionBatch,
  type SuggestionBatch,
} from '@exam/domain/question-grading';
import { http, HttpResponse } from 'msw';
import { errorBody } from './handlers.ts';
import { groupsOf, makeBatch, makeSuggestion, progressOf } from './question-grading-factories.ts';
import { server } from './server.ts';

type Options = {
  /** Each answer's writer, by resultId, sent only when the screen asks with names=true. */
  names?: Record<string, { name: string; studentId: string }>;
  agreement?: QuestionAgreement[];
  /** What "Suggest a mark" answers for a result. */
  suggestionFor?: (resultId: string) => GradingSuggestion;
  batch?: SuggestionBatch | null;
};

const notFound = () => HttpResponse.json(errorBody('NOT_FOUND', 'Exam not found'), { status: 404 });

/**
 * A fake results-service for one question's grading: it serves the answers (names only when asked), applies
 * marks and detachments to them as the real one would, and records every request body for the tests.
 */
export function serveQuestionGrading(initial: QuestionAnswers, options: Options = {}) {
  const state = {
    data: initial,
    answerRequests: [] as Array<{ names: boolean }>,
    marks: [] as QuestionMark[],
    detachments: [] as DetachAnswer[],
    suggestionRequests: [] as string[],
    batch: options.batch ?? null,
    batchStarts: [] as unknown[],
    cancels: [] as string[],
    agreement: options.agreement ?? [],
  };
  const ours = (params: Record<string, unknown>) =>
    params.examId === state.data.examId && Number(params.questionIndex) === state.data.questionIndex;
  const update = (rows: QuestionAnswers['answers']) => {
    state.data = { ...state.data, answers: rows, groups: groupsOf(rows), progress: progressOf(rows) };
  };
  const base = '*/api/exams/:examId/questions/:questionIndex';

  server.use(
    http.get(`${base}/answers`, ({ params, request }) => {
      if (!ours(params)) return notFound();
      const names = new URL(request.url).searchParams.get('names') === 'true';
      state.answerRequests.push({ names });
      const answers = state.data.answers.map((row) => ({
        ...row,
        candidate: names ? (options.names?.[row.resultId] ?? { name: `Writer ${row.number}`, studentId: '' }) : null,
      }));
      return HttpResponse.json({ ...state.data, answers });
    }),
    http.post(`${base}/marks`, async ({ params, request }) => {
      if (!ours(params)) return notFound();
      const mark = QuestionMarkSchema.parse(await request.json());
      state.marks.push(mark);
      const suggestion = (id: string | undefined) =>
        state.data.answers.find((row) => row.suggestion?.id === id)?.suggestion ?? null;
      const taken = mark.suggestionId ? suggestion(mark.suggestionId) : null;
      update(
        state.data.answers.map((row) =>
          mark.resultIds.includes(row.resultId)
            ? {
                ...row,
                points: mark.points,
                feedback: mark.feedback,
                criteria: mark.criteria,
                decision: {
                  by: 'creator@example.com',
                  at: '2025-01-07T12:30:00.000Z',
                  suggestion: taken ? (taken.points === mark.points ? 'accepted' : 'edited') : null,
                },
              }
            : row,
        ),
      );
      return HttpResponse.json({ marked: mark.resultIds.length, unchanged: 0 });
    }),
    http.post(`${base}/detachments`, async ({ params, request }) => {
      if (!ours(params)) return notFound();
      const body = DetachAnswerSchema.parse(await request.json());
      state.detachments.push(body);
      update(
        state.data.answers.map((row) => (row.resultId === body.resultId ? { ...row, detached: body.detached } : row)),
      );
      return HttpResponse.json({
        examId: state.data.examId,
        questionIndex: state.data.questionIndex,
        groups: state.data.groups,
      } satisfies AnswerGroups);
    }),
    http.post('*/api/results/:resultId/questions/:questionIndex/suggestion', ({ params }) => {
      const resultId = String(params.resultId);
      state.suggestionRequests.push(resultId);
      const suggestion = options.suggestionFor?.(resultId) ?? makeSuggestion(resultId);
      update(state.data.answers.map((row) => (row.resultId === resultId ? { ...row, suggestion } : row)));
      return HttpResponse.json(suggestion, { status: 201 });
    }),
    http.get(`${base}/suggestions/latest`, ({ params }) =>
      ours(params) ? HttpResponse.json({ batch: state.batch }) : notFound(),
    ),
    http.post(`${base}/suggestions`, async ({ params, request }) => {
      if (!ours(params)) return notFound();
      state.batchStarts.push((await request.json()) as StartSuggestionBatch);
      state.batch = makeBatch({ progress: { done: 0, failed: 0, total: progressOf(state.data.answers).total } });
      return HttpResponse.json(state.batch, { status: 202 });
    }),
    http.post(`${base}/suggestions/:batchId/cancel`, ({ params }) => {
      if (!ours(params) || !state.batch) return notFound();
      state.cancels.push(String(params.batchId));
      state.batch = { ...state.batch, cancelRequested: true };
      return HttpResponse.json(state.batch);
    }),
    http.get('*/api/exams/:examId/grading/agreement', ({ params }) =>
      params.examId === state.data.examId
        ? HttpResponse.json({ examId: state.data.examId, questions: state.agreement })
        : notFound(),
    ),
  );
  return state;
}
