import type { CompactOperation } from '@exam/domain/answer-operations';
import { fileTooLargeMessage, type AttemptState, type ProctorEvent, type SaveAnswer } from '@exam/domain/attempt';
import type { Briefing } from '@exam/domain/cohort';
import type { PublicExam } from '@exam/domain/public-exam';
import type { Announcement, CandidateLive } from '@exam/domain/live';
import {
  assistantOpenIn,
  lockedSections,
  sectionIndexOf,
  SectionMessages,
  type SectionState,
} from '@exam/domain/sections';
import type { ProcessReceipt } from '@exam/domain/timeline';
import { http, HttpResponse } from 'msw';
import { createFakeFollowUp } from './fake-follow-up.ts';
import { readMultipartFile } from './multipart.ts';

/** A section's state as results-service reports it, at `position`, with its own deadline. */
function sectionStateAt(
  sections: PublicExam['sections'],
  position: { index: number; startedAt: Date; deadline: Date | null },
): SectionState {
  const limit = sections[position.index]?.timeLimitMinutes ?? null;
  const deadline =
    position.deadline ?? (limit === null ? null : new Date(position.startedAt.getTime() + limit * 60_000));
  return {
    current: position.index,
    startedAt: position.startedAt.toISOString(),
    deadline: deadline?.toISOString() ?? null,
    locked: lockedSections(sections, position.index),
    assistant: assistantOpenIn(sections, position.index),
  };
}
const firstSection = (sections: PublicExam['sections'], now: Date) =>
  sectionStateAt(sections, { index: 0, startedAt: now, deadline: null });

/**
 * An in-memory stand-in for results-service with its real rules (seq ordering, 409 after submit,
 * idempotent submit, edit operations stored once each, in order, up to a cap) and switches that cut the
 * network or lose responses, for tests of the durable outbox.
 */
export type FakeResultsService = ReturnType<typeof createFakeResultsService>;

export function createFakeResultsService(init: {
  exam: PublicExam;
  attemptId?: string;
  deadline?: string | null;
  serverNow?: () => Date;
}) {
  const attemptId = init.attemptId ?? 'attempt-1';
  const now = init.serverNow ?? (() => new Date());
  const state = {
    networkDown: false,
    answers: new Map<number, { answer: string; seq: number }>(),
    /** Each question's edit operations as stored: a save's chunk keeps only what lies past the stored count. */
    operations: new Map<number, CompactOperation[]>(),
    /** Most operations the attempt may store; past it saves answer operationsCapped and store none. */
    operationsCap: Infinity,
    operationsCapped: false,
    /** The bodies of every PUT of an answer that reached the server, in order. */
    putBodies: [] as Array<{ questionIndex: number; body: SaveAnswer; keepalive: boolean }>,
    /** Answer saves to store and then lose the response of (the page sees a network failure). */
    loseAnswerResponses: 0,
    /** GET /api/attempts/{id}/receipt: the candidate's summary and receipt, or null for a 404. */
    receipt: null as ProcessReceipt | null,
    receiptCalls: 0,
    /** Answer files as the server stored them, by question. */
    files: new Map<number, { fileName: string; mimeType: string; bytes: Uint8Array }>(),
    uploadMaxBytes: 10 * 1024 * 1024,
    uploadCalls: 0,
    events: [] as ProctorEvent[],
    submitted: false,
    /** The bodies POST /api/attempts received, in order. */
    startBodies: [] as Record<string, unknown>[],
    /** The questions that had a stored file when the submit arrived (what the result holds). */
    filesAtSubmit: [] as number[],
    submitCalls: 0,
    putCalls: 0,
    deadline: init.deadline ?? null,
    /** The live exam (GET /api/public/exams/{id}). */
    examResponse: init.exam as PublicExam | null,
    /** The attempt's snapshot view (GET /api/attempts/{id}/exam); a test edits examResponse to play the creator. */
    attemptExam: init.exam,
    examError: null as null | { status: number; code: string; message: string },
    /** The live view's side (GET /api/attempts/{id}/live): the examiner's announcements and ending. */
    announcements: [] as Announcement[],
    endedAt: null as string | null,
    liveCalls: 0,
    /** The bodies POST /api/attempts/briefing received, and what the briefing says beyond the exam's own. */
    briefingBodies: [] as Record<string, unknown>[],
    briefing: {} as Partial<Briefing>,
    /** A refusal POST /api/attempts answers with instead of starting (the window, the attempts). */
    startRefusal: null as null | { status: number; code: string; message: string },
    /**
     * Where the attempt is among the exam's sections (null: an exam without them). As results-service: the exam view
     * holds only the questions of the sections reached, answers outside the open sections are refused, and a
     * section whose deadline has passed gives way to the next.
     */
    section: (init.exam.sections.length > 0 ? firstSection(init.exam.sections, now()) : null) as SectionState | null,
    /** The bodies POST …/sections/advance received, in order. */
    advanceBodies: [] as Array<{ from: number }>,
  };
  /** The follow-up questions after submit (off unless a test sets `followUp.state.status` to 'pending'). */
  const followUp = createFakeFollowUp({ now, networkDown: () => state.networkDown });
  const sections = () => state.attemptExam.sections;
  /** The stored section, moved on past any section whose deadline has passed (as sections.ts sectionAt does). */
  const currentSection = (): SectionState | null => {
    let at = state.section;
    while (at?.deadline && now() >= new Date(at.deadline) && at.current < sections().length - 1)
      at = sectionStateAt(sections(), { index: at.current + 1, startedAt: new Date(at.deadline), deadline: null });
    state.section = at;
    return at;
  };
  /** The attempt's view of the exam: with sections, only the questions of those reached so far. */
  const examView = (): PublicExam => {
    const at = currentSection();
    if (!at) return state.attemptExam;
    const questions = state.attemptExam.questions.filter((q) => sectionIndexOf(q, sections()) <= at.current);
    return { ...state.attemptExam, questions };
  };
  /** results-service's refusal of an answer outside the open sections, or null. */
  const sectionRefusal = (questionIndex: number) => {
    const at = currentSection();
    const question = state.attemptExam.questions[questionIndex];
    if (!at || !question) return null;
    const index = sectionIndexOf(question, sections());
    if (index > at.current)
      return HttpResponse.json(
        { error: { code: 'SECTION_NOT_REACHED', message: SectionMessages.notReached } },
        { status: 409 },
      );
    if (at.locked.includes(index))
      return HttpResponse.json({ error: { code: 'SECTION_LOCKED', message: SectionMessages.locked } }, { status: 409 });
    return null;
  };
  const cut = () => (state.networkDown ? HttpResponse.error() : null);
  const closed = () =>
    HttpResponse.json(
      {
        error: {
          code: 'ATTEMPT_CLOSED',
          message: 'This exam has already been submitted. Changes are no longer accepted.',
        },
      },
      { status: 409 },
    );
  const storedCount = () => [...state.operations.values()].reduce((sum, ops) => sum + ops.length, 0);
  /** As results-service: a chunk is kept once, only past the stored count; a gap or the cap stores nothing. */
  const storeOperations = (index: number, chunk: NonNullable<SaveAnswer['operations']>) => {
    const held = state.operations.get(index) ?? [];
    const fresh = chunk.start <= held.length ? chunk.ops.slice(held.length - chunk.start) : [];
    if (state.operationsCapped || storedCount() + fresh.length > state.operationsCap) {
      state.operationsCapped = true;
      return { operationsEnd: held.length, operationsCapped: true };
    }
    state.operations.set(index, [...held, ...fresh]);
    return { operationsEnd: held.length + fresh.length };
  };
  const answered = () => [...state.answers.values()].filter((a) => a.answer.trim() !== '').length;

  const handlers = [
    http.get('/api/public/exams/:examId', () => {
      if (state.networkDown) return HttpResponse.error();
      if (state.examError)
        return HttpResponse.json(
          { error: { code: state.examError.code, message: state.examError.message } },
          { status: state.examError.status },
        );
      if (!state.examResponse) return HttpResponse.json(null);
      // As exam-service answers: the questions come only with an attempt or a preview token.
      const { questions: _questions, ...summary } = state.examResponse;
      return HttpResponse.json(summary);
    }),
    http.post('/api/attempts/briefing', async ({ request }) => {
      const down = cut();
      if (down) return down;
      state.briefingBodies.push((await request.json()) as Record<string, unknown>);
      const exam = state.examResponse ?? init.exam;
      const minutes = exam.timerEnabled ? exam.timerMinutes : null;
      const body: Briefing = {
        examId: exam.id,
        title: exam.title,
        description: exam.description,
        rules: exam.rules,
        durationMinutes: minutes,
        baseDurationMinutes: minutes,
        opensAt: exam.opensAt,
        closesAt: exam.closesAt,
        windowState: 'open',
        fullScreenEnabled: exam.fullScreenEnabled,
        workspaceEnabled: exam.codingWorkspace.enabled,
        assistantEnabled: exam.aiSettings.enabled,
        questionCount: exam.questionCount,
        attemptsAllowed: exam.attemptsAllowed,
        attemptsUsed: 0,
        inProgress: false,
        practice: exam.practice,
        serverNow: now().toISOString(),
        ...state.briefing,
      };
      return HttpResponse.json(body);
    }),
    http.post('/api/attempts', async ({ request }) => {
      const down = cut();
      if (down) return down;
      state.startBodies.push((await request.json()) as Record<string, unknown>);
      if (state.startRefusal)
        return HttpResponse.json(
          { error: { code: state.startRefusal.code, message: state.startRefusal.message } },
          { status: state.startRefusal.status },
        );
      return HttpResponse.json({
        attemptId,
        token: 'attempt-token',
        startedAt: now().toISOString(),
        deadline: state.deadline,
        resumed: false,
        resumeSecret: 'secret-of-this-browser',
        resumeCode: '7KQ2M9XD',
      });
    }),
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
        answers: Object.fromEntries(
          [...state.answers].map(([index, value]) => [
            String(index),
            { ...value, operations: state.operations.get(index)?.length ?? 0 },
          ]),
        ),
        uploadMaxBytes: state.uploadMaxBytes,
        ...(currentSection() && { section: currentSection()! }),
      };
      return HttpResponse.json(body);
    }),
    http.get('/api/attempts/:attemptId/live', () => {
      const down = cut();
      if (down) return down;
      state.liveCalls += 1;
      const body: CandidateLive = {
        serverNow: now().toISOString(),
        deadline: state.deadline,
        submittedAt: state.submitted ? (state.endedAt ?? now().toISOString()) : null,
        endedAt: state.endedAt,
        announcements: state.announcements,
      };
      return HttpResponse.json(body);
    }),
    http.get('/api/attempts/:attemptId/exam', () => cut() ?? HttpResponse.json(examView())),
    http.post('/api/attempts/:attemptId/sections/advance', async ({ request }) => {
      const down = cut();
      if (down) return down;
      const body = (await request.json()) as { from: number };
      state.advanceBodies.push(body);
      const at = currentSection();
      if (!at) return HttpResponse.json({ error: { code: 'CONFLICT', message: 'No sections' } }, { status: 409 });
      // Idempotent by `from`: a move already made (by a retry or the section's time) answers the state as it is.
      if (body.from === at.current && at.current < sections().length - 1)
        state.section = sectionStateAt(sections(), { index: at.current + 1, startedAt: now(), deadline: null });
      return HttpResponse.json(currentSection());
    }),
    http.put('/api/attempts/:attemptId/answers/:questionIndex', async ({ request, params }) => {
      const down = cut();
      if (down) return down;
      state.putCalls += 1;
      if (state.submitted) return closed();
      const index = Number(params.questionIndex);
      const refused = sectionRefusal(index);
      if (refused) return refused;
      const body = (await request.json()) as SaveAnswer;
      state.putBodies.push({ questionIndex: index, body, keepalive: request.keepalive });
      const stored = state.answers.get(index);
      const applied = !stored || body.seq > stored.seq;
      if (applied) state.answers.set(index, { answer: body.answer, seq: body.seq });
      const operations = body.operations ? storeOperations(index, body.operations) : {};
      if (state.loseAnswerResponses > 0) {
        state.loseAnswerResponses -= 1;
        return HttpResponse.error();
      }
      return HttpResponse.json({
        questionIndex: index,
        seq: applied ? body.seq : (stored?.seq ?? 0),
        applied,
        ...operations,
      });
    }),
    http.get('/api/attempts/:attemptId/receipt', () => {
      const down = cut();
      if (down) return down;
      state.receiptCalls += 1;
      if (!state.receipt)
        return HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'No receipt yet' } }, { status: 404 });
      return HttpResponse.json(state.receipt);
    }),
    http.post('/api/attempts/:attemptId/files/:questionIndex', async ({ request, params }) => {
      const down = cut();
      if (down) return down;
      state.uploadCalls += 1;
      if (state.submitted) return closed();
      const file = await readMultipartFile(request);
      if (!file)
        return HttpResponse.json({ error: { code: 'VALIDATION', message: 'No file was sent' } }, { status: 400 });
      if (file.bytes.length > state.uploadMaxBytes)
        return HttpResponse.json(
          { error: { code: 'PAYLOAD_TOO_LARGE', message: fileTooLargeMessage(state.uploadMaxBytes) } },
          { status: 413 },
        );
      const index = Number(params.questionIndex);
      const answer = `File: ${file.fileName}`;
      state.files.set(index, file);
      state.answers.set(index, { answer, seq: (state.answers.get(index)?.seq ?? 0) + 1 });
      return HttpResponse.json({ questionIndex: index, fileName: file.fileName, size: file.bytes.length, answer });
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
      if (!state.submitted) state.filesAtSubmit = [...state.files.keys()];
      state.submitted = true;
      return HttpResponse.json({
        resultId: 'result-1',
        answered: answered(),
        total: state.attemptExam.questions.length,
        followUp: followUp.state.status === 'pending',
      });
    }),
    ...followUp.handlers,
  ];

  return { attemptId, state, handlers, followUp: followUp.state };
}
