import { randomUUID } from 'node:crypto';
import { replay, type CompactOperation } from '@exam/domain/answer-operations';
import type { TranscriptMessage } from '@exam/domain/internal';
import { TimelineSchema, type ProcessRecord, type Timeline } from '@exam/domain/timeline';
import { computeTypingSignals } from '@exam/domain/typing-signals';
import type { AgentCall } from '@exam/domain/workspace-agents';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announcements, answerOperations, attempts, results } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeCodingExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';

const T0 = new Date('2031-05-01T09:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000).toISOString();
/** A typed run of `text`, one key every `gapMs`, starting `t` ms after the attempt began (the compact form). */
const typed = (t: number, from: number, text: string, gapMs = 150): CompactOperation => [
  t,
  from,
  from,
  text,
  0,
  Array.from(text)
    .slice(1)
    .map(() => gapMs),
];
const message = (id: string, role: 'user' | 'assistant', seconds: number, extra: Partial<TranscriptMessage> = {}) => ({
  id,
  role,
  content: role === 'user' ? `question ${id}` : `reply ${id}`,
  questionIndex: 1,
  isError: false,
  files: [],
  createdAt: at(seconds),
  ...extra,
});

describe('the timeline of an attempt', () => {
  const clock = fakeClock(T0);
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
  });
  afterAll(() => app.close());

  const put = (attemptId: string, headers: Record<string, string>, index: number, answer: string) =>
    app.inject({
      method: 'PUT',
      url: `/api/attempts/${attemptId}/answers/${index}`,
      headers,
      payload: { answer, seq: 1 },
    });
  const submit = (attemptId: string, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: `/api/attempts/${attemptId}/submit`, headers });
  const storeOps = (attemptId: string, questionIndex: number, start: number, ops: CompactOperation[]) =>
    app.db.insert(answerOperations).values({
      attemptId,
      questionIndex,
      start,
      end: start + ops.length,
      ops,
      bytes: JSON.stringify(ops).length,
    });
  const timeline = (resultId: string, headers: Record<string, string>) =>
    app.inject({ method: 'GET', url: `/api/results/${resultId}/timeline`, headers });

  /** An attempt at a coding exam started at T0 (the clock is set back to T0 for each). */
  async function begin(overrides: Parameters<typeof makeCodingExam>[0] = {}) {
    clock.advance(T0.getTime() - clock.now().getTime());
    const exam = app.exams.put(makeCodingExam(overrides));
    const attempt = await startAttempt(app, exam.id);
    const goTo = (seconds: number) => clock.advance(T0.getTime() + seconds * 1000 - clock.now().getTime());
    return { exam, attempt, goTo };
  }

  it('puts events, edits, assistant turns, test runs, workspace changes, announcements and the submit in time order', async () => {
    const { exam, attempt, goTo } = await begin({
      codingWorkspace: { enabled: true, saveFilesInResults: false },
    });
    const { attemptId, headers } = attempt;
    // The candidate's clock is three minutes behind the server's.
    const behind = (seconds: number) => new Date(T0.getTime() + (seconds - 180) * 1000).toISOString();
    goTo(5);
    await app.inject({
      method: 'POST',
      url: `/api/attempts/${attemptId}/events`,
      headers,
      payload: { events: [{ type: 'focus-lost', clientAt: behind(5) }] },
    });
    goTo(10);
    const run = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attemptId}/questions/1/test-runs`,
      headers,
      payload: { code: 'pass small' },
    });
    expect(run.statusCode).toBeLessThan(300);
    goTo(26);
    await put(attemptId, headers, 0, 'a');
    goTo(36);
    await put(attemptId, headers, 1, 'print(1+2)');
    // Blocked at 40 s while offline, delivered at 60 s: the timeline places it at 40 s.
    goTo(60);
    await app.inject({
      method: 'POST',
      url: `/api/attempts/${attemptId}/events`,
      headers,
      payload: {
        events: [{ type: 'paste-blocked', clientAt: behind(40), questionIndex: 1, detail: '120 characters' }],
      },
    });
    goTo(90);
    const submitted = await submit(attemptId, headers);
    const resultId = submitted.json<{ resultId: string }>().resultId;

    await storeOps(attemptId, 1, 0, [typed(20_000, 0, 'print(1')]);
    await storeOps(attemptId, 1, 1, [[35_000, 7, 7, '+2)', 1]]);
    await storeOps(attemptId, 0, 0, [[25_000, 0, 0, 'a', 0]]);
    await app.db
      .update(attempts)
      .set({ operationsCappedAt: new Date(at(58)) })
      .where(eq(attempts.id, attemptId));
    await app.db.insert(announcements).values(
      [-10, 48, 200].map((seconds) => ({
        id: randomUUID(),
        examId: exam.id,
        ownerId: exam.ownerId,
        text: `notice at ${seconds}`,
        createdBy: 'proctor@example.test',
        createdAt: new Date(at(seconds)),
      })),
    );
    app.attemptTranscripts.put(attemptId, [
      message('m1', 'user', 12),
      message('m2', 'assistant', 13, { planted: { questionIndex: 1, error: 'O(n)', verified: true } }),
      message('m3', 'user', 50),
      message('m4', 'assistant', 51, { isWithheld: true, withheldQuestionIndex: 1 }),
    ]);
    app.workspaceHistory.put(attemptId, {
      capped: false,
      files: [
        {
          path: 'main.py',
          changes: [
            { at: at(45), content: 'print(3)\n', source: 'typed', deleted: false },
            { at: at(55), content: '', source: null, deleted: true },
          ],
        },
      ],
    });

    const response = await timeline(resultId, creatorHeaders(app, exam.ownerId));
    expect(response.statusCode).toBe(200);
    const body: Timeline = TimelineSchema.parse(response.json());
    expect(body).toMatchObject({ resultId, attemptId, startedAt: at(0), submittedAt: at(90), unavailable: [] });
    expect(body.events.map((e) => [e.at, e.kind])).toEqual([
      [at(5), 'focus-lost'],
      [at(10), 'test-run'],
      [at(12), 'assistant-user'],
      [at(13), 'assistant-reply'],
      [at(20), 'answer-edit'],
      [at(25), 'answer-edit'],
      [at(35), 'answer-edit'],
      [at(40), 'paste-blocked'],
      [at(45), 'workspace-change'],
      [at(48), 'announcement'],
      [at(50), 'assistant-user'],
      [at(51), 'guardrail-stop'],
      [at(55), 'workspace-change'],
      [at(58), 'recording-capped'],
      [at(90), 'submit'],
    ]);
    const kinds = (kind: string) => body.events.filter((e) => e.kind === kind);
    expect(kinds('answer-edit').map((e) => [e.questionIndex, e.operation])).toEqual([
      [1, 0],
      [0, 0],
      [1, 1],
    ]);
    expect(kinds('paste-blocked')[0]).toMatchObject({ questionIndex: 1, detail: '120 characters' });
    const sent = app.runner.requests[0]!;
    expect(kinds('test-run')[0]).toMatchObject({ questionIndex: 1, passed: 1, total: sent.tests.length });
    expect(sent.tests.length).toBeGreaterThan(1);
    expect(kinds('guardrail-stop')[0]).toMatchObject({ messageId: 'm4', questionIndex: 1 });
    expect(kinds('assistant-reply')[0]?.detail).toBe('Planted error: O(n) (the reply contained it).');
    expect(kinds('assistant-user').map((e) => e.messageId)).toEqual(['m1', 'm3']);
    expect(kinds('workspace-change').map((e) => [e.path, e.change, e.detail])).toEqual([
      ['main.py', 0, undefined],
      ['main.py', 1, 'deleted'],
    ]);
    expect(kinds('announcement').map((e) => e.detail)).toEqual(['notice at 48']);
    expect(body.messages.map((m) => [m.id, m.role, m.at])).toEqual([
      ['m1', 'user', at(12)],
      ['m2', 'assistant', at(13)],
      ['m3', 'user', at(50)],
      ['m4', 'assistant', at(51)],
    ]);
    expect(body.workspaceFiles[0]?.changes).toHaveLength(2);

    const [mcq, code] = body.answers;
    expect(code).toMatchObject({
      questionIndex: 1,
      final: 'print(1+2)',
      reconciled: false,
      sources: { typed: 7, pasted: 3, assistant: 0, autocomplete: 0, restored: 0 },
      runs: [
        [7, 'typed'],
        [3, 'pasted'],
      ],
    });
    expect(replay(code!.operations)).toBe('print(1+2)');
    expect(code!.operations[0]).toMatchObject({ at: at(20), source: 'typed', insert: 'print(1' });
    expect(code!.operations[0]?.keys).toHaveLength(6);
    expect(code!.signals.keystrokes).toBe(7);
    expect(code!.signals.pauses.medianMs).toBe(150);
    expect(mcq).toMatchObject({ questionIndex: 0, final: 'a', reconciled: false, sources: { typed: 1 } });
    expect(body.answers).toHaveLength(2);
  });

  it('closes the gap with a restored operation at the last save when the recorded operations fall short', async () => {
    const { exam, attempt, goTo } = await begin();
    goTo(40);
    await put(attempt.attemptId, attempt.headers, 1, 'print(1+2)');
    goTo(60);
    const resultId = (await submit(attempt.attemptId, attempt.headers)).json<{ resultId: string }>().resultId;
    // The page recorded "print(" and then stopped (another device, a lost log).
    await storeOps(attempt.attemptId, 1, 0, [typed(10_000, 0, 'print(')]);

    const body = TimelineSchema.parse((await timeline(resultId, creatorHeaders(app, exam.ownerId))).json());
    const code = body.answers[1]!;
    expect(code.reconciled).toBe(true);
    expect(replay(code.operations)).toBe('print(1+2)');
    expect(code.operations.at(-1)).toEqual({ at: at(40), from: 6, to: 6, insert: '1+2)', source: 'restored' });
    expect(code.sources).toMatchObject({ typed: 6, restored: 4 });
    expect(body.events.filter((e) => e.kind === 'answer-edit').map((e) => [e.at, e.operation])).toEqual([
      [at(10), 0],
      [at(40), 1],
    ]);
    // The question nobody answered and nobody recorded: nothing to replay, nothing reconciled.
    expect(body.answers[0]).toMatchObject({ final: '', operations: [], reconciled: false });
  });

  it("ranks each typing figure among the exam's other candidates for the same question, by the question's id", async () => {
    const code = 'print(int(input()) + 2)  # done';
    const n = Array.from(code).length;
    // n keys 200 ms apart: n characters in (n - 1) × 200 ms of typing.
    const cpm = Math.round(((n * 60_000) / ((n - 1) * 200)) * 10) / 10;
    const { exam, attempt, goTo } = await begin();
    goTo(30);
    await put(attempt.attemptId, attempt.headers, 1, code);
    const resultId = (await submit(attempt.attemptId, attempt.headers)).json<{ resultId: string }>().resultId;
    await storeOps(attempt.attemptId, 1, 0, [typed(5_000, 0, code, 200)]);

    const record = (
      questionIndex: number,
      figures: { cpm: number; pause: number; revision: number; burst: number },
    ) => {
      const signals = computeTypingSignals([]);
      return {
        summary: {
          attemptId: 'x',
          characters: 0,
          typedPercent: 0,
          pastedPercent: 0,
          assistantPercent: 0,
          autocompletePercent: 0,
          restoredPercent: 0,
          assistantMessages: 0,
          outsidePastesBlocked: 0,
          submittedAt: at(90),
        },
        answers: [
          {
            questionIndex,
            sources: { typed: 0, pasted: 0, assistant: 0, autocomplete: 0, restored: 0 },
            reconciled: false,
            signals: {
              ...signals,
              charsPerMinute: figures.cpm,
              pauses: { ...signals.pauses, medianMs: figures.pause },
              revisionRatio: figures.revision,
              longestBurst: figures.burst,
            },
          },
        ],
      } satisfies ProcessRecord;
    };
    const sitOther = async (examId: string) => {
      const other = await startAttempt(app, examId);
      const id = (await submit(other.attemptId, other.headers)).json<{ resultId: string }>().resultId;
      return { id, attemptId: other.attemptId };
    };
    const setProcess = (id: string, process: ProcessRecord) =>
      app.db.update(results).set({ process }).where(eq(results.id, id));

    const slower = await sitOther(exam.id);
    const faster = await sitOther(exam.id);
    const fastest = await sitOther(exam.id);
    // This candidate saw the questions in the other order: the coding question was their first.
    await app.db.execute(
      sql`update results_service.attempts set exam_snapshot = jsonb_set(exam_snapshot, '{questions}',
        (select jsonb_agg(q order by i desc) from jsonb_array_elements(exam_snapshot->'questions') with ordinality as t(q, i)))
        where id = ${slower.attemptId}`,
    );
    await setProcess(slower.id, record(0, { cpm: cpm - 50, pause: 100, revision: 0.1, burst: n - 5 }));
    await setProcess(faster.id, record(1, { cpm: cpm + 50, pause: 300, revision: 0.2, burst: n + 5 }));
    await setProcess(fastest.id, record(1, { cpm: cpm + 100, pause: 500, revision: 0, burst: 0 }));
    // Neither the result itself nor another exam's results count.
    await setProcess(resultId, record(1, { cpm: cpm - 20, pause: 1, revision: 0, burst: 1 }));
    const elsewhere = app.exams.put(makeCodingExam());
    await setProcess((await sitOther(elsewhere.id)).id, record(1, { cpm: cpm - 10, pause: 1, revision: 0, burst: 1 }));

    const body = TimelineSchema.parse((await timeline(resultId, creatorHeaders(app, exam.ownerId))).json());
    const signals = body.answers[1]!.signals;
    expect(signals.charsPerMinute).toBe(cpm);
    expect(signals.pauses.medianMs).toBe(200);
    expect(signals.revisionRatio).toBe(0);
    expect(signals.longestBurst).toBe(n);
    // Mid-rank percentiles over the three others: speed and pause 1 of 3 below (33.3); revisions none below and
    // 1 of 3 equal (16.7); bursts 1 of 2 below, the empty answer's 0 left out (50).
    expect(signals.percentiles).toEqual({
      charsPerMinute: 33.3,
      medianPauseMs: 33.3,
      revisionRatio: 16.7,
      longestBurst: 50,
    });
    // The multiple-choice question has no cohort figures at all.
    expect(body.answers[0]!.signals.percentiles).toEqual({
      charsPerMinute: null,
      medianPauseMs: null,
      revisionRatio: null,
      longestBurst: null,
    });
  });

  it('serves the timeline with the assistant and workspace parts empty and named when those services are down', async () => {
    const { exam, attempt, goTo } = await begin({ codingWorkspace: { enabled: true, saveFilesInResults: false } });
    goTo(10);
    await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/questions/1/test-runs`,
      headers: attempt.headers,
      payload: { code: 'pass all' },
    });
    await put(attempt.attemptId, attempt.headers, 0, 'b');
    goTo(20);
    const resultId = (await submit(attempt.attemptId, attempt.headers)).json<{ resultId: string }>().resultId;
    await storeOps(attempt.attemptId, 0, 0, [[9_000, 0, 0, 'b', 0]]);
    app.attemptTranscripts.put(attempt.attemptId, [message('m1', 'user', 5)]);
    app.attemptTranscripts.down = true;
    app.workspaceHistory.down = true;
    app.runner.down = true;
    try {
      const response = await timeline(resultId, creatorHeaders(app, exam.ownerId));
      expect(response.statusCode).toBe(200);
      const body = TimelineSchema.parse(response.json());
      expect(body.unavailable).toEqual(['assistant', 'workspace']);
      expect(body.messages).toEqual([]);
      expect(body.workspaceFiles).toEqual([]);
      expect(body.events.map((e) => e.kind)).toEqual(['answer-edit', 'test-run', 'submit']);
      expect(body.events[1]).toMatchObject({ questionIndex: 1, detail: 'The runner could not be reached.' });
      expect(body.events[1]?.passed).toBeUndefined();
      expect(body.answers[0]).toMatchObject({ final: 'b', sources: { typed: 1 } });
    } finally {
      app.attemptTranscripts.down = false;
      app.workspaceHistory.down = false;
      app.runner.down = false;
    }
  });

  it('does not ask for a workspace history when the exam has no coding workspace', async () => {
    const { exam, attempt } = await begin();
    const resultId = (await submit(attempt.attemptId, attempt.headers)).json<{ resultId: string }>().resultId;
    const response = await timeline(resultId, creatorHeaders(app, exam.ownerId));
    expect(response.statusCode).toBe(200);
    expect(response.json().unavailable).toEqual([]);
    expect(app.workspaceHistory.calls).not.toContain(attempt.attemptId);
    expect(app.attemptTranscripts.calls).toContain(attempt.attemptId);
  });

  it('returns 404 to another creator, and refuses a candidate token or none', async () => {
    const { exam, attempt } = await begin();
    const resultId = (await submit(attempt.attemptId, attempt.headers)).json<{ resultId: string }>().resultId;
    const calls = app.attemptTranscripts.calls.length;
    const stranger = await timeline(resultId, creatorHeaders(app, `owner-${randomUUID()}`));
    expect(stranger.statusCode).toBe(404);
    expect(stranger.body).not.toContain(attempt.attemptId);
    expect((await timeline(randomUUID(), creatorHeaders(app, exam.ownerId))).statusCode).toBe(404);
    expect((await timeline(resultId, attempt.headers)).statusCode).toBe(403);
    expect((await timeline(resultId, {})).statusCode).toBe(401);
    // Nothing was read from another service on their behalf.
    expect(app.attemptTranscripts.calls.length).toBe(calls);
    expect((await timeline(resultId, creatorHeaders(app, exam.ownerId))).statusCode).toBe(200);
  });
  describe("the workspace agent's calls", () => {
    const call = (id: string, start: number, end: number, extra: Partial<AgentCall> = {}): AgentCall => ({
      id,
      kind: 'agent',
      attemptId: 'ignored',
      agent: 'codex',
      wire: 'openai-responses',
      model: 'gpt-test',
      status: 'ok',
      reason: null,
      input: `input ${id}`,
      toolResults: [],
      reply: `reply ${id}`,
      toolCalls: [],
      inputTokens: 10,
      outputTokens: 5,
      startedAt: at(start),
      finishedAt: at(end),
      ...extra,
    });
    const agentExam = {
      codingWorkspace: {
        enabled: true,
        saveFilesInResults: false,
        ai: { mode: 'agent' as const, agent: 'codex' as const },
      },
    };

    it('adds an agent-call event per call and names the call that made each workspace change', async () => {
      const { exam, attempt, goTo } = await begin(agentExam);
      goTo(200);
      const resultId = (await submit(attempt.attemptId, attempt.headers)).json<{ resultId: string }>().resultId;
      app.attemptTranscripts.putAgentCalls(attempt.attemptId, [
        call('c1', 10, 12, {
          toolCalls: [
            { id: 'call_1', name: 'apply_patch', arguments: '*** Begin Patch' },
            { id: 'call_2', name: 'shell', arguments: '{"cmd":"ls"}' },
            { id: 'call_3', name: 'shell', arguments: '{"cmd":"pytest"}' },
          ],
        }),
        call('c2', 20, 22, { status: 'refused', reason: 'The attempt’s AI budget is spent', reply: '' }),
      ]);
      app.workspaceHistory.put(attempt.attemptId, {
        capped: false,
        files: [
          {
            path: 'app.py',
            changes: [
              // Before any call: the candidate's own.
              { at: at(5), content: 'a\n', source: 'typed', deleted: false },
              // Written after c1 (which asked for tools) began and before the agent's next call: c1's.
              { at: at(15), content: 'b\n', source: null, deleted: false },
              // Long after the agent's last call: the candidate's own.
              { at: at(190), content: 'c\n', source: 'typed', deleted: false },
            ],
          },
        ],
      });

      const body = TimelineSchema.parse((await timeline(resultId, creatorHeaders(app, exam.ownerId))).json());
      expect(body.unavailable).toEqual([]);
      expect(body.agentCalls?.map((c) => [c.id, c.status, c.reply])).toEqual([
        ['c1', 'ok', 'reply c1'],
        ['c2', 'refused', ''],
      ]);
      expect(body.workspaceFiles[0]?.changes.map((c) => c.agentCallId)).toEqual([null, 'c1', null]);
      expect(body.events.map((e) => [e.at, e.kind, e.messageId ?? e.path])).toEqual([
        [at(5), 'workspace-change', 'app.py'],
        [at(10), 'agent-call', 'c1'],
        [at(15), 'workspace-change', 'app.py'],
        [at(20), 'agent-call', 'c2'],
        [at(190), 'workspace-change', 'app.py'],
        [at(200), 'submit', undefined],
      ]);
      const calls = body.events.filter((e) => e.kind === 'agent-call');
      expect(calls.map((e) => e.detail)).toEqual([
        'ok; tools: apply_patch, shell',
        'refused: The attempt’s AI budget is spent',
      ]);
      expect(app.attemptTranscripts.agentCallReads).toContain(attempt.attemptId);
    });

    it('serves the rest of the timeline with the assistant named unavailable when the gateway is down', async () => {
      const { exam, attempt, goTo } = await begin(agentExam);
      goTo(30);
      const resultId = (await submit(attempt.attemptId, attempt.headers)).json<{ resultId: string }>().resultId;
      app.attemptTranscripts.putAgentCalls(attempt.attemptId, [call('c1', 1, 2)]);
      app.workspaceHistory.put(attempt.attemptId, {
        capped: false,
        files: [{ path: 'app.py', changes: [{ at: at(3), content: 'x\n', source: null, deleted: false }] }],
      });
      app.attemptTranscripts.down = true;
      try {
        const response = await timeline(resultId, creatorHeaders(app, exam.ownerId));
        expect(response.statusCode).toBe(200);
        const body = TimelineSchema.parse(response.json());
        expect(body.unavailable).toEqual(['assistant']);
        expect(body.agentCalls).toEqual([]);
        expect(body.events.map((e) => e.kind)).toEqual(['workspace-change', 'submit']);
        expect(body.workspaceFiles[0]?.changes[0]?.agentCallId ?? null).toBeNull();
      } finally {
        app.attemptTranscripts.down = false;
      }
    });

    it('does not ask the gateway for agent calls when the workspace had no agent', async () => {
      const { exam, attempt } = await begin({ codingWorkspace: { enabled: true, saveFilesInResults: false } });
      const resultId = (await submit(attempt.attemptId, attempt.headers)).json<{ resultId: string }>().resultId;
      const body = TimelineSchema.parse((await timeline(resultId, creatorHeaders(app, exam.ownerId))).json());
      expect(body.agentCalls).toBeUndefined();
      expect(app.attemptTranscripts.agentCallReads).not.toContain(attempt.attemptId);
    });

    it("returns another creator 404 and reads none of the attempt's agent calls for them", async () => {
      const { attempt } = await begin(agentExam);
      const resultId = (await submit(attempt.attemptId, attempt.headers)).json<{ resultId: string }>().resultId;
      const stranger = await timeline(resultId, creatorHeaders(app, `owner-${randomUUID()}`));
      expect(stranger.statusCode).toBe(404);
      expect(app.attemptTranscripts.agentCallReads).not.toContain(attempt.attemptId);
    });
  });
});
