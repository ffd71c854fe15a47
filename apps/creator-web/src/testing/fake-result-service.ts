import { sumPoints } from '@exam/domain/grading';
import {
  GradeResultSchema,
  ReleaseSchema,
  ResultSummarySchema,
  type GradeResult,
  type QuestionAnswer,
  type ResultDetail,
} from '@exam/domain/result';
import { http, HttpResponse } from 'msw';
import { fakeResultList } from './fake-results-list.ts';
import { errorBody } from './handlers.ts';

/** Score, max, percentage and status of the questions, the way results-service derives them. */
export function rescore(detail: ResultDetail, questionAnswers: QuestionAnswer[]): ResultDetail {
  const score = sumPoints(questionAnswers.map((qa) => qa.points ?? 0));
  const maxScore = sumPoints(questionAnswers.map((qa) => qa.maxPoints));
  const pendingCount = questionAnswers.filter((qa) => qa.points === null).length;
  const status = pendingCount > 0 ? 'pending' : detail.releasedAt ? 'released' : 'graded';
  return {
    ...detail,
    questionAnswers,
    score,
    maxScore,
    percentage: maxScore > 0 ? (score / maxScore) * 100 : 0,
    status,
    pendingCount,
    isGraded: status !== 'pending',
    releasedAt: status === 'pending' ? null : detail.releasedAt,
  };
}

/**
 * A fake results-service holding one result: GET, the grade PATCH (a mark wins over the key; points: null
 * gives the question back to the key, or to pending) with history, release, and the list. PATCH bodies are
 * recorded; the first `failPatches` answer 500.
 */
export function fakeResultService(initial: ResultDetail, opts: { failPatches?: number } = {}) {
  const patches: GradeResult[] = [];
  const releases: boolean[] = [];
  let failures = opts.failPatches ?? 0;
  let current = initial;
  const keyPoints = new Map(
    initial.questionAnswers.filter((qa) => qa.autoScored).map((qa) => [qa.questionIndex, qa.points]),
  );

  /**
   * results-service's rule for coding questions graded by tests: once the tests are done, an entry that
   * changes their points needs a reason (400 `grading.<n>.reason`, n the entry's position).
   */
  const missingReason = (body: GradeResult) =>
    body.grading.flatMap((entry, n) => {
      const qa = current.questionAnswers.find((q) => q.questionIndex === entry.questionIndex);
      const overrides = qa?.tests?.state === 'done' && entry.points !== qa.points;
      return overrides && !entry.reason?.trim()
        ? [{ path: `grading.${n}.reason`, message: 'Say why you change the points the tests gave' }]
        : [];
    });

  const grade = (body: GradeResult) => {
    const history = [...current.history];
    const questionAnswers = current.questionAnswers.map((qa) => {
      const entry = body.grading.find((g) => g.questionIndex === qa.questionIndex);
      if (!entry) return qa;
      const key = keyPoints.get(qa.questionIndex) ?? null;
      const next: QuestionAnswer =
        entry.points === null
          ? { ...qa, points: key, autoScored: key !== null, isGraded: key !== null, feedback: '', criteria: [] }
          : {
              ...qa,
              points: entry.points,
              autoScored: false,
              isGraded: true,
              feedback: entry.feedback,
              criteria: entry.criteria,
            };
      if (next.points !== qa.points || next.feedback !== qa.feedback)
        history.push({
          at: '2025-01-06T09:00:00.000Z',
          by: 'creator@example.com',
          kind: 'grade',
          questionIndex: qa.questionIndex,
          before: { points: qa.points, feedback: qa.feedback },
          after: { points: next.points, feedback: next.feedback },
          ...(entry.reason ? { reason: entry.reason } : {}),
        });
      return next;
    });
    current = rescore({ ...current, history }, questionAnswers);
  };

  const handlers = [
    fakeResultList([ResultSummarySchema.parse(initial)]).handler,
    http.get('*/api/results/:id', ({ params }) =>
      params.id === current.id
        ? HttpResponse.json(current)
        : HttpResponse.json(errorBody('NOT_FOUND', 'Result not found'), { status: 404 }),
    ),
    http.patch('*/api/results/:id', async ({ request }) => {
      const body = GradeResultSchema.parse(await request.json());
      patches.push(body);
      if (failures > 0) {
        failures -= 1;
        return HttpResponse.json(errorBody('INTERNAL', 'boom'), { status: 500 });
      }
      const issues = missingReason(body);
      if (issues.length > 0)
        return HttpResponse.json(errorBody('VALIDATION_FAILED', 'Invalid request', issues), { status: 400 });
      grade(body);
      return HttpResponse.json(current);
    }),
    http.post('*/api/results/:id/release', async ({ request }) => {
      const { released } = ReleaseSchema.parse(await request.json());
      releases.push(released);
      if (current.status === 'pending')
        return HttpResponse.json(errorBody('CONFLICT', 'This result is still awaiting grading'), { status: 409 });
      current = {
        ...current,
        status: released ? 'released' : 'graded',
        releasedAt: released ? '2025-01-07T10:00:00.000Z' : null,
        history: [
          ...current.history,
          {
            at: '2025-01-07T10:00:00.000Z',
            by: 'creator@example.com',
            kind: released ? 'release' : 'unrelease',
            questionIndex: null,
            before: null,
            after: null,
          },
        ],
      };
      return HttpResponse.json(current);
    }),
    http.get('*/api/llm/attempts/:attemptId/transcript', () => HttpResponse.json({ messages: [] })),
  ];
  return {
    handlers,
    patches,
    releases,
    current: () => current,
    /** Plays the runner: the grade run of a question finished (or failed), setting the result as the server would. */
    setQuestion(questionIndex: number, change: Partial<QuestionAnswer>) {
      current = rescore(
        current,
        current.questionAnswers.map((qa) => (qa.questionIndex === questionIndex ? { ...qa, ...change } : qa)),
      );
    },
  };
}
