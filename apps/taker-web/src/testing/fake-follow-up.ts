import {
  FollowUpMessages,
  FollowUpStateSchema,
  SaveFollowUpAnswerSchema,
  SubmitFollowUpAnswerSchema,
  type FollowUpState,
  type FollowUpStatus,
} from '@exam/domain/follow-up';
import { http, HttpResponse } from 'msw';

export type FakeFollowUpQuestion = { text: string; questionNumber: number; title: string };
type Asked = FakeFollowUpQuestion & {
  n: number;
  askedAt: Date;
  deadline: Date;
  answer: string;
  seq: number;
  answeredAt: Date | null;
  timedOut: boolean;
};

/**
 * results-service's follow-up routes with their rules (packages/domain/src/follow-up.ts): start generates the
 * questions or skips with a note, one question is open at a time until its deadline, a draft's stale seq is
 * ignored, a write after the deadline is a 409, and a read after the deadline closes the question (its draft is
 * the answer) and asks the next.
 */
export function createFakeFollowUp(init: { now: () => Date; networkDown: () => boolean }) {
  const { now } = init;
  const state = {
    status: 'off' as FollowUpStatus,
    note: null as string | null,
    secondsPerQuestion: 180,
    /** What start generates; `skipNote` makes start skip instead. */
    questions: [] as FakeFollowUpQuestion[],
    skipNote: null as string | null,
    /** Answers to start with a 503 (the service failing) before it works. */
    startFailures: 0,
    /** Holds start's answer until the test releases it (the generation takes seconds). */
    startGate: null as Promise<void> | null,
    startCalls: 0,
    asked: [] as Asked[],
    putBodies: [] as Array<{ n: number; answer: string; seq: number }>,
    submitBodies: [] as Array<{ n: number; answer: string }>,
  };
  const open = () => state.asked.find((q) => q.answeredAt === null);
  const ask = (index: number) => {
    const question = state.questions[index];
    if (!question) {
      state.status = 'done';
      return;
    }
    const askedAt = now();
    state.asked.push({
      ...question,
      n: index + 1,
      askedAt,
      deadline: new Date(askedAt.getTime() + state.secondsPerQuestion * 1000),
      answer: '',
      seq: 0,
      answeredAt: null,
      timedOut: false,
    });
  };
  /** A question past its deadline closes with its draft as the answer, and the next is asked. */
  const closeExpired = () => {
    const current = open();
    if (state.status !== 'asking' || !current || now() < current.deadline) return;
    current.answeredAt = current.deadline;
    current.timedOut = true;
    ask(current.n);
  };
  const body = (): FollowUpState => {
    closeExpired();
    const current = state.status === 'asking' ? open() : undefined;
    return FollowUpStateSchema.parse({
      status: state.status,
      note: state.note,
      total: state.status === 'asking' || state.status === 'done' ? state.questions.length : 0,
      answered: state.asked.filter((q) => q.answeredAt !== null).length,
      current: current
        ? {
            n: current.n,
            text: current.text,
            probes: { questionNumber: current.questionNumber, title: current.title },
            askedAt: current.askedAt.toISOString(),
            deadline: current.deadline.toISOString(),
            answer: current.answer,
            seq: current.seq,
          }
        : null,
      secondsPerQuestion: state.secondsPerQuestion,
      serverNow: now().toISOString(),
    });
  };
  const closed = () =>
    HttpResponse.json({ error: { code: 'CONFLICT', message: FollowUpMessages.closed } }, { status: 409 });
  /** The open question `n`, or null when it is not open (another question, or its deadline passed). */
  const openQuestion = (n: number) => {
    const current = open();
    return state.status === 'asking' && current?.n === n && now() < current.deadline ? current : null;
  };

  const handlers = [
    http.get('/api/attempts/:attemptId/follow-up', () =>
      init.networkDown() ? HttpResponse.error() : HttpResponse.json(body()),
    ),
    http.post('/api/attempts/:attemptId/follow-up/start', async () => {
      if (init.networkDown()) return HttpResponse.error();
      state.startCalls += 1;
      if (state.startFailures > 0) {
        state.startFailures -= 1;
        return HttpResponse.json({ error: { code: 'UNAVAILABLE', message: 'Try again' } }, { status: 503 });
      }
      if (state.startGate) await state.startGate;
      if (state.status === 'pending') {
        if (state.skipNote) {
          state.status = 'skipped';
          state.note = state.skipNote;
        } else {
          state.status = 'asking';
          ask(0);
        }
      }
      return HttpResponse.json(body());
    }),
    http.put('/api/attempts/:attemptId/follow-up/:n/answer', async ({ request, params }) => {
      if (init.networkDown()) return HttpResponse.error();
      const n = Number(params.n);
      const draft = SaveFollowUpAnswerSchema.parse(await request.json());
      state.putBodies.push({ n, ...draft });
      const question = openQuestion(n);
      if (!question) return closed();
      if (draft.seq > question.seq) Object.assign(question, { answer: draft.answer, seq: draft.seq });
      return HttpResponse.json({ seq: question.seq });
    }),
    http.post('/api/attempts/:attemptId/follow-up/:n/submit', async ({ request, params }) => {
      if (init.networkDown()) return HttpResponse.error();
      const n = Number(params.n);
      const { answer } = SubmitFollowUpAnswerSchema.parse(await request.json());
      state.submitBodies.push({ n, answer });
      const question = openQuestion(n);
      if (!question) return closed();
      Object.assign(question, { answer, answeredAt: now() });
      ask(n);
      return HttpResponse.json(body());
    }),
  ];

  return { state, handlers };
}
