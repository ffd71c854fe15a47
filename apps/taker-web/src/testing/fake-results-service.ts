import type { AttemptState, ProctorEvent } from '@exam/domain/attempt';
import type { PublicExam } from '@exam/domain/exam';
import { http, HttpResponse } from 'msw';

/**
 * An in-memory stand-in for results-service with its real rules (seq ordering, 409 after submit,
 * idempotent submit) and a switch that cuts the network, for tests of the durable outbox.
 */
export type FakeResultsService = ReturnType<typeof createFakeResultsService>;

export function createFakeResultsService(init: { exam: PublicExam; attemptId?: string; deadline?: string | null; serverNow?: () => Date }) {
  const attemptId = init.attemptId ?? 'attempt-1';
  const now = init.serverNow ?? (() => new Date());
  const state = {
    networkDown: false,
    answers: new Map<number, { answer: string; seq: number }>(),
    events: [] as ProctorEvent[],
    submitted: false,
    submitCalls: 0,
    putCalls: 0,
    deadline: init.deadline ?? null,
    examResponse: init.exam as PublicExam | null,
    examError: null as null | { status: number; code: string; message: string },
  };
  const cut = () => (state.networkDown ? HttpResponse.error() : null);
  const closed = () => HttpResponse.json({ error: { code: 'ATTEMPT_CLOSED', message: 'This exam has already been submitted. Changes are no longer accepted.' } }, { status: 409 });
  const answered = () => [...state.answers.values()].filter((a) => a.answer.trim() !== '').length;

  const handlers = [
    http.get('/api/public/exams/:examId', () => {
      if (state.networkDown) return HttpResponse.error();
      if (state.examError) return HttpResponse.json({ error: { code: state.examError.code, message: state.examError.message } }, { status: state.examError.status });
      return HttpResponse.json(state.examResponse);
    }),
    http.post('/api/attempts', () => cut() ?? HttpResponse.json({ attemptId, token: 'attempt-token', startedAt: now().toISOString(), deadline: state.deadline, resumed: false })),
    http.get('/api/attempts/:attemptId', () => {
      const down = cut();
      if (down) return down;
      const body: AttemptState = {
        attemptId,
        examId: init.exam.id,
        name: 'Ada Lovelace',
        studentId: 'S-1',
        startedAt: now().toISOString(),
        deadline: state.deadline,
        submittedAt: state.submitted ? now().toISOString() : null,
        resultId: state.submitted ? 'result-1' : null,
        serverNow: now().toISOString(),
        answers: Object.fromEntries([...state.answers].map(([index, value]) => [String(index), value])),
      };
      return HttpResponse.json(body);
    }),
    http.put('/api/attempts/:attemptId/answers/:questionIndex', async ({ request, params }) => {
      const down = cut();
      if (down) return down;
      state.putCalls += 1;
      if (state.submitted) return closed();
      const index = Number(params.questionIndex);
      const body = (await request.json()) as { answer: string; seq: number };
      const stored = state.answers.get(index);
      const applied = !stored || body.seq > stored.seq;
      if (applied) state.answers.set(index, { answer: body.answer, seq: body.seq });
      return HttpResponse.json({ questionIndex: index, seq: applied ? body.seq : (stored?.seq ?? 0), applied });
    }),
    http.post('/api/attempts/:attemptId/events', async ({ request }) => {
      const down = cut();
      if (down) return down;
      const body = (await request.json()) as { events: ProctorEvent[] };
      state.events.push(...body.events);
      return HttpResponse.json({ recorded: body.events.length });
    }),
    http.post('/api/attempts/:attemptId/submit', () => {
      const down = cut();
      if (down) return down;
      state.submitCalls += 1;
      state.submitted = true;
      return HttpResponse.json({ resultId: 'result-1', answered: answered(), total: init.exam.questions.length });
    }),
  ];

  return { attemptId, state, handlers };
}
