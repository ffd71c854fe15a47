import type { Exam } from '@exam/domain/exam';
import { sumPoints } from '@exam/domain/grading';
import {
  GradeResultSchema,
  ReleaseSchema,
  ResultSummarySchema,
  type GradeResult,
  type QuestionAnswer,
  type ResultDetail,
} from '@exam/domain/result';
import {
  ProcessSummarySchema,
  TimelineSchema,
  VerifyReceiptResponseSchema,
  VerifyReceiptSchema,
  type ProcessSummary,
  type Timeline,
} from '@exam/domain/timeline';
import { http, HttpResponse } from 'msw';
import type { z } from 'zod';
import { fakeResultList } from './fake-results-list.ts';
import { errorBody } from './handlers.ts';
import { makeProcessSummary } from './timeline-factories.ts';

/** The signature the fake platform puts on its receipts; any other is not the platform's. */
const PLATFORM_SIGNATURE = 'platform-signature';
const base64url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** A compact JWS as the fake platform signs it (header.payload.signature), `signature` to forge one. */
export function fakeReceipt(summary: ProcessSummary, signature = PLATFORM_SIGNATURE): string {
  return [base64url('{"alg":"EdDSA"}'), base64url(JSON.stringify(summary)), signature].join('.');
}

/** results-service's check of a receipt: signature first, then the attempt, then the figures against the record. */
function verify(receipt: string, attemptId: string, record: ProcessSummary) {
  type Response = z.infer<typeof VerifyReceiptResponseSchema>;
  const [, payload, signature, ...rest] = receipt.split('.');
  let summary: ProcessSummary | undefined;
  try {
    summary = ProcessSummarySchema.parse(JSON.parse(atob((payload ?? '').replace(/-/g, '+').replace(/_/g, '/'))));
  } catch {
    summary = undefined;
  }
  if (!summary || rest.length > 0) return { valid: false, reason: 'malformed' } satisfies Response;
  if (signature !== PLATFORM_SIGNATURE) return { valid: false, reason: 'signature' } satisfies Response;
  if (summary.attemptId !== attemptId) return { valid: false, reason: 'attempt', summary } satisfies Response;
  const matchesRecord = JSON.stringify(summary) === JSON.stringify(record);
  return { valid: true, summary, matchesRecord, record } satisfies Response;
}

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
 * A fake results-service holding one result (and, with `exam`, exam-service's read of its exam): GET, the grade PATCH (a mark wins over the key; points: null
 * gives the question back to the key, or to pending) with history, release, and the list. PATCH bodies are
 * recorded; the first `failPatches` answer 500.
 */
export function fakeResultService(
  initial: ResultDetail,
  opts: {
    failPatches?: number;
    /** GET …/timeline; by default one with nothing recorded. */
    timeline?: Timeline;
    /** What the platform computes from the stored timeline, for receipts to be checked against. */
    record?: ProcessSummary;
    /** GET /api/exams/{examId} of the result's exam (exam-service): its questions lay out structured answers. */
    exam?: Exam;
  } = {},
) {
  const patches: GradeResult[] = [];
  const verifications: string[] = [];
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
    ...(opts.exam
      ? [
          http.get('*/api/exams/:id', ({ params }) =>
            params.id === opts.exam?.id
              ? HttpResponse.json(opts.exam)
              : HttpResponse.json(errorBody('NOT_FOUND', 'Exam not found'), { status: 404 }),
          ),
        ]
      : []),
    http.get('*/api/llm/attempts/:attemptId/transcript', () => HttpResponse.json({ messages: [] })),
    http.get('*/api/results/:id/timeline', ({ params }) =>
      params.id === current.id
        ? HttpResponse.json(
            TimelineSchema.parse(
              opts.timeline ?? {
                resultId: current.id,
                attemptId: current.attemptId,
                startedAt: current.startedAt,
                submittedAt: current.completedAt,
                events: [],
                answers: [],
                workspaceFiles: [],
                messages: [],
                unavailable: [],
              },
            ),
          )
        : HttpResponse.json(errorBody('NOT_FOUND', 'Result not found'), { status: 404 }),
    ),
    http.post('*/api/results/:id/receipt/verify', async ({ params, request }) => {
      if (params.id !== current.id)
        return HttpResponse.json(errorBody('NOT_FOUND', 'Result not found'), { status: 404 });
      const body = VerifyReceiptSchema.safeParse(await request.json());
      if (!body.success)
        return HttpResponse.json(
          errorBody('VALIDATION_FAILED', 'Invalid request', [{ path: 'receipt', message: 'Paste a receipt' }]),
          { status: 400 },
        );
      verifications.push(body.data.receipt);
      const record = opts.record ?? makeProcessSummary({ attemptId: current.attemptId });
      return HttpResponse.json(VerifyReceiptResponseSchema.parse(verify(body.data.receipt, current.attemptId, record)));
    }),
  ];
  return {
    handlers,
    patches,
    releases,
    /** The receipts the page sent to be checked. */
    verifications,
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
