import { AuthMessages, AuthResponseSchema, LoginSchema, type AuthNotice, type AuthResponse } from '@exam/domain/auth';
import { StartAuditSchema, type LatestAudit } from '@exam/domain/assistant-audit';
import type { ErrorBody } from '@exam/domain/errors';
import { CreateExamSchema, ExamSchema, UpdateExamSchema, type Exam } from '@exam/domain/exam';
import {
  DEFAULT_EXAM_REQUESTS_PER_HOUR,
  DEFAULT_EXAM_TOKENS_PER_HOUR,
  type AiSettingsInput,
} from '@exam/domain/exam-ai';
import { FollowUpForGraderSchema } from '@exam/domain/follow-up';
import type { ExamAiUsage } from '@exam/domain/llm';
import { TimelineSchema } from '@exam/domain/timeline';
import { makeAuditEstimate } from './audit-factories.ts';
import { makeUnusedCollaborationProfile } from './collaboration-factories.ts';
import { http, HttpResponse } from 'msw';
import type { ExamResultsSummary } from '../features/exams/api/get-results-summary.ts';
import { makeExam, makeToken, makeUser } from './factories.ts';

/** The exams the fake exam-service holds, and every write it received (tests assert on bodies). */
export const examStore = { exams: [] as Exam[], writes: [] as Array<{ method: string; path: string; body: unknown }> };

export function seedExams(...exams: Exam[]): void {
  examStore.exams = exams;
  examStore.writes = [];
}

export const errorBody = (code: string, message: string, issues?: ErrorBody['error']['issues']): ErrorBody => ({
  error: { code, message, ...(issues ? { issues } : {}) },
});

function applyAiSettings(current: Exam['aiSettings'], input: AiSettingsInput): Exam['aiSettings'] {
  const { apiKey, courseMaterialIds, ...fields } = input;
  const keyView =
    apiKey === undefined
      ? { hasApiKey: current.hasApiKey, apiKeyLast4: current.apiKeyLast4 }
      : apiKey === null
        ? { hasApiKey: false, apiKeyLast4: null }
        : { hasApiKey: true, apiKeyLast4: apiKey.slice(-4) };
  return {
    ...fields,
    ...keyView,
    courseMaterials: current.courseMaterials.filter((m) => courseMaterialIds.includes(m.id)),
  };
}

const notFound = () => HttpResponse.json(errorBody('NOT_FOUND', 'Exam not found'), { status: 404 });

export const handlers = [
  http.post('*/api/auth/logout', () => HttpResponse.json<AuthNotice>({ message: AuthMessages.signedOut })),
  http.post('*/api/auth/logout-all', () =>
    HttpResponse.json<AuthNotice>({ message: AuthMessages.signedOutEverywhere }),
  ),
  http.post('*/api/auth/password', () => HttpResponse.json<AuthNotice>({ message: AuthMessages.passwordChanged })),
  http.post('*/api/auth/password-reset', () =>
    HttpResponse.json<AuthNotice>({ message: AuthMessages.resetAccepted }, { status: 202 }),
  ),
  http.post('*/api/auth/password-reset/confirm', () =>
    HttpResponse.json<AuthNotice>({ message: AuthMessages.passwordReset }),
  ),
  http.post('*/api/auth/:action', async ({ request }) => {
    const credentials = LoginSchema.parse(await request.json());
    const body: AuthResponse = AuthResponseSchema.parse({
      token: makeToken({ email: credentials.email }),
      user: makeUser({ email: credentials.email }),
    });
    return HttpResponse.json(body);
  }),
  // The creator layout asks whether to link the platform's status: by default nobody is an administrator.
  http.get('*/api/admin/me', () => HttpResponse.json({ admin: false })),
  http.get('*/api/organization/me', () =>
    HttpResponse.json({ organizationId: 'org-1', name: 'creator@example.com', role: 'member' }),
  ),
  http.get('*/api/exams/auth_exams', () => HttpResponse.json({ exams: examStore.exams })),
  http.get('*/api/results/summary', () => HttpResponse.json({ exams: [] as ExamResultsSummary[] })),
  http.get('*/api/exams/invitation-counts', () => HttpResponse.json({ exams: [] })),
  // Workspaces started for every attempt: the orchestrator has no failure to tell the creator about.
  http.get('*/api/session/attempts/:attemptId/start-failure', () => HttpResponse.json({ failure: null })),
  // No grader has taken an AI-suggested mark on any exam: the insights page has no agreement to show.
  http.get('*/api/exams/:id/grading/agreement', ({ params }) =>
    HttpResponse.json({ examId: String(params.id), questions: [] }),
  ),
  // The result page's collaboration profile: a candidate who never used the assistant, unless a test serves its own.
  http.get('*/api/results/:id/collaboration', ({ params }) =>
    HttpResponse.json(makeUnusedCollaborationProfile(String(params.id))),
  ),
  // The result page's report share links: none made yet, unless a test serves its own.
  http.get('*/api/results/:id/report-links', () => HttpResponse.json({ links: [] })),
  // Exams have no follow-up questions after submit unless a test serves a result's own (fake-follow-up.ts).
  http.get('*/api/results/:id/follow-up', () =>
    HttpResponse.json(
      FollowUpForGraderSchema.parse({
        status: 'off',
        note: null,
        rubric: [],
        questions: [],
        points: { awarded: 0, max: 0, marked: 0 },
      }),
    ),
  ),
  // No AI solvability check has been run on any exam.
  http.get('*/api/exams/:id/solvability-checks/latest', () => HttpResponse.json({ check: null })),
  // No exam's assistant has been audited, and an audit would fit the budget (a 2-question exam at list prices).
  http.get('*/api/exams/:id/assistant-audits/latest', () =>
    HttpResponse.json({ audit: null, examVersion: 'v1', current: true } satisfies LatestAudit),
  ),
  http.post('*/api/exams/:id/assistant-audits/estimate', async ({ request }) =>
    HttpResponse.json(makeAuditEstimate(StartAuditSchema.parse(await request.json()))),
  ),
  // Exams are not placed in an LMS course unless a test says so.
  http.get('*/api/exams/:id/roster/lms', () => HttpResponse.json({ linked: false, courses: [] })),
  // The exam's erasures of candidates' data (none unless a test says otherwise).
  http.get('*/api/exams/:id/erasures', () => HttpResponse.json({ erasures: [] })),
  // A regrade dry run of an exam without submissions: nothing changes.
  http.post('*/api/exams/:id/regrade', ({ request }) =>
    HttpResponse.json({
      dryRun: new URL(request.url).searchParams.get('dryRun') !== 'false',
      results: 0,
      changed: 0,
      up: 0,
      down: 0,
      questions: [],
      changes: [],
    }),
  ),
  // The assistant's spend of an exam nobody has chatted in yet, against the default budget.
  http.get('*/api/llm/exams/:id/usage', ({ params }) => {
    const none = {
      requests: 0,
      tokens: 0,
      refusals: { examRequests: 0, examTokens: 0, attemptMessages: 0, attemptTokens: 0 },
    };
    return HttpResponse.json({
      examId: String(params.id),
      budget: { tokensPerHour: DEFAULT_EXAM_TOKENS_PER_HOUR, requestsPerHour: DEFAULT_EXAM_REQUESTS_PER_HOUR },
      lastHour: none,
      total: none,
    } satisfies ExamAiUsage);
  }),
  http.get('*/api/exams/:id', ({ params }) => {
    const exam = examStore.exams.find((e) => e.id === params.id);
    return exam ? HttpResponse.json(exam) : notFound();
  }),
  http.post('*/api/exams', async ({ request }) => {
    const raw = await request.json();
    examStore.writes.push({ method: 'POST', path: '/api/exams', body: raw });
    const input = CreateExamSchema.parse(raw);
    const { aiSettings, isDraft, ...fields } = input;
    const draft = makeExam({ isDraft, isLive: false, publishedAt: isDraft ? null : new Date().toISOString() });
    const exam = ExamSchema.parse({ ...draft, ...fields, aiSettings: applyAiSettings(draft.aiSettings, aiSettings) });
    examStore.exams.push(exam);
    return HttpResponse.json({ exam }, { status: 201 });
  }),
  http.put('*/api/exams/:id', async ({ params, request }) => {
    const raw = await request.json();
    examStore.writes.push({ method: 'PUT', path: `/api/exams/${String(params.id)}`, body: raw });
    const current = examStore.exams.find((e) => e.id === params.id);
    if (!current) return notFound();
    const { aiSettings, ...fields } = UpdateExamSchema.parse(raw);
    const exam = ExamSchema.parse({
      ...current,
      ...fields,
      aiSettings: aiSettings ? applyAiSettings(current.aiSettings, aiSettings) : current.aiSettings,
    });
    examStore.exams = examStore.exams.map((e) => (e.id === exam.id ? exam : e));
    return HttpResponse.json(exam);
  }),
  http.delete('*/api/exams/:id', ({ params }) => {
    examStore.writes.push({ method: 'DELETE', path: `/api/exams/${String(params.id)}`, body: null });
    if (!examStore.exams.some((e) => e.id === params.id)) return notFound();
    examStore.exams = examStore.exams.filter((e) => e.id !== params.id);
    return HttpResponse.json({ id: String(params.id) });
  }),
  // A result whose attempt recorded nothing of how its answers came to be (features/grading's replay).
  http.get('*/api/results/:id/timeline', ({ params }) =>
    HttpResponse.json(
      TimelineSchema.parse({
        resultId: String(params.id),
        attemptId: 'attempt-unrecorded',
        startedAt: '2025-01-05T13:00:00.000Z',
        submittedAt: '2025-01-05T14:30:00.000Z',
        events: [],
        answers: [],
        workspaceFiles: [],
        messages: [],
        unavailable: [],
      }),
    ),
  ),
  // The live view's log of a result: no announcements, nobody ended it (features/live).
  http.get('*/api/results/:id/announcements', () =>
    HttpResponse.json({ announcements: [], endedBy: null, endedAt: null }),
  ),
];
