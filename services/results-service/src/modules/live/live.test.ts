import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { results } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { CANARY, makeExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';
import { createLiveRepository } from './live.repository.ts';
import { PRESENCE_MIN_GAP_MS } from './live.routes.ts';
import { databasePresence } from './presence.ts';

type Attempt = Awaited<ReturnType<typeof startAttempt>>;

describe('live proctor view', () => {
  // Later than the finalizer suite's clock, so its drains never reach these attempts.
  const clock = fakeClock(new Date('2041-03-01T09:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
  });
  afterAll(() => app.close());

  const setup = () => {
    const exam = app.exams.put(makeExam({ timerMinutes: 30 }));
    return { exam, owner: creatorHeaders(app, exam.ownerId) };
  };
  const save = (attempt: Attempt, index: number, answer: string, seq = 1) =>
    app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/answers/${index}`,
      headers: attempt.headers,
      payload: { answer, seq },
    });
  const sendEvents = (attempt: Attempt, types: string[]) =>
    app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/events`,
      headers: attempt.headers,
      payload: { events: types.map((type) => ({ type })) },
    });
  const live = (examId: string, headers: Record<string, string>) =>
    app.inject({ method: 'GET', url: `/api/exams/${examId}/live`, headers });
  const announce = (examId: string, headers: Record<string, string>, text: unknown) =>
    app.inject({ method: 'POST', url: `/api/exams/${examId}/announcements`, headers, payload: { text } });
  const poll = (attempt: Attempt) =>
    app.inject({ method: 'GET', url: `/api/attempts/${attempt.attemptId}/live`, headers: attempt.headers });
  const end = (examId: string, attemptId: string, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: `/api/exams/${examId}/attempts/${attemptId}/end`, headers });
  // Read through the app's store: attempt_presence, or Redis under test:redis.
  const lastSeen = (attemptId: string) => app.presence.find(attemptId);

  describe('GET /api/exams/:id/live', () => {
    it('lists each attempt in progress with answered n/total, warnings by kind and the time left', async () => {
      const { exam, owner } = setup();
      const ada = await startAttempt(app, exam.id, { name: 'Ada' });
      // Oldest start first: Bob starts a second later (same-instant starts are ordered by id).
      clock.advance(1000);
      const bob = await startAttempt(app, exam.id, { name: 'Bob' });
      expect((await save(ada, 0, CANARY)).statusCode).toBe(200);
      expect((await save(ada, 1, 'skin')).statusCode).toBe(200);
      expect((await save(ada, 3, '   ')).statusCode).toBe(200);
      // Moving to another question (question-view) is no warning.
      expect(
        (await sendEvents(ada, ['focus-lost', 'focus-gained', 'question-view', 'focus-lost', 'copy'])).statusCode,
      ).toBe(202);
      // Last seen is recorded after the reply has gone.
      await vi.waitFor(async () => expect(await lastSeen(ada.attemptId)).toBeDefined());
      clock.advance(60_000);

      const response = await live(exam.id, owner);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.serverNow).toBe(clock.now().toISOString());
      expect(body.attempts.map((a: { name: string }) => a.name)).toEqual(['Ada', 'Bob']);
      const [first, second] = body.attempts;
      expect(first).toMatchObject({
        attemptId: ada.attemptId,
        studentId: ada.studentId,
        answered: 2,
        total: 4,
        warnings: { 'focus-lost': 2, copy: 1 },
        status: 'in-progress',
        deadline: ada.deadline,
        secondsLeft: 29 * 60 - 1,
        submittedAt: null,
        endedBy: null,
      });
      expect(first.lastSeenAt).not.toBeNull();
      expect(second).toMatchObject({ attemptId: bob.attemptId, answered: 0, warnings: {}, status: 'in-progress' });
    });

    it('gives each attempt the running shares of typed, pasted and assistant text from its stored operations', async () => {
      const { exam, owner } = setup();
      const ada = await startAttempt(app, exam.id, { name: 'Ada' });
      const bob = await startAttempt(app, exam.id, { name: 'Bob' });
      const put = (operations: unknown, answer: string, seq: number) =>
        app.inject({
          method: 'PUT',
          url: `/api/attempts/${ada.attemptId}/answers/1`,
          headers: ada.headers,
          payload: { answer, seq, operations },
        });
      // "abc" typed, "defgh" pasted, "ij" copied from the assistant, then "de" deleted: inserted text still counts.
      const ops = [
        [0, 0, 0, 'abc', 0, [100, 100]],
        [500, 3, 3, 'defgh', 1],
        [900, 8, 8, 'ij', 2],
        [1200, 3, 5, '', 0, [90]],
      ];
      expect((await put({ start: 0, ops: ops.slice(0, 2) }, 'abcdefgh', 1)).statusCode).toBe(200);
      // A resent overlapping chunk counts only its new operations.
      expect((await put({ start: 0, ops }, 'abcfghij', 2)).statusCode).toBe(200);
      expect((await save(bob, 1, 'no operations')).statusCode).toBe(200);

      const body = (await live(exam.id, owner)).json();
      const byName = Object.fromEntries(body.attempts.map((a: { name: string }) => [a.name, a]));
      expect(byName.Ada.shares).toEqual({ typed: 3, pasted: 5, assistant: 2 });
      expect(byName.Bob.shares).toEqual({ typed: 0, pasted: 0, assistant: 0 });
    });

    it('marks submitted attempts and leaves out those submitted over an hour ago', async () => {
      const { exam, owner } = setup();
      const early = await startAttempt(app, exam.id, { name: 'Early' });
      await app.inject({ method: 'POST', url: `/api/attempts/${early.attemptId}/submit`, headers: early.headers });
      const recent = await startAttempt(app, exam.id, { name: 'Recent' });
      clock.advance(61 * 60_000);
      await app.inject({ method: 'POST', url: `/api/attempts/${recent.attemptId}/submit`, headers: recent.headers });
      await startAttempt(app, exam.id, { name: 'Open' });

      const body = (await live(exam.id, owner)).json();
      const byName = Object.fromEntries(body.attempts.map((a: { name: string }) => [a.name, a]));
      expect(Object.keys(byName).sort()).toEqual(['Open', 'Recent']);
      // Recent's 30 minutes ran out before it submitted (within the finalizer's reach): expired, not submitted.
      expect(byName.Recent.status).toBe('expired');
      expect(byName.Recent.secondsLeft).toBeNull();
      expect(byName.Open).toMatchObject({ status: 'in-progress', secondsLeft: 30 * 60 });
    });

    it('answers 404 to another creator, whether the exam has attempts or not', async () => {
      const { exam, owner } = setup();
      const other = creatorHeaders(app, 'someone-else');
      expect((await live(exam.id, owner)).json().attempts).toEqual([]);
      expect((await live(exam.id, other)).statusCode).toBe(404);
      await startAttempt(app, exam.id);
      const refused = await live(exam.id, other);
      expect(refused.statusCode).toBe(404);
      expect(refused.body).not.toContain('Ada');
      expect((await live('no-such-exam', owner)).statusCode).toBe(404);
    });

    it('answers 401 without a creator token and 403 to an attempt token', async () => {
      const { exam } = setup();
      const attempt = await startAttempt(app, exam.id);
      expect((await app.inject({ method: 'GET', url: `/api/exams/${exam.id}/live` })).statusCode).toBe(401);
      expect((await live(exam.id, attempt.headers)).statusCode).toBe(403);
    });
  });

  describe('announcements', () => {
    it('refuses an empty or too long text with 400 naming text', async () => {
      const { exam, owner } = setup();
      for (const text of ['', '   ', 'x'.repeat(2001), 42]) {
        const response = await announce(exam.id, owner, text);
        expect(response.statusCode).toBe(400);
        expect(response.json().error.issues[0].path).toBe('text');
      }
      expect((await announce(exam.id, owner, 'x'.repeat(2000))).statusCode).toBe(201);
    });

    it('refuses another creator with 404 and stores nothing', async () => {
      const { exam, owner } = setup();
      expect((await announce(exam.id, creatorHeaders(app, 'someone-else'), 'Hello')).statusCode).toBe(404);
      expect((await live(exam.id, owner)).json().announcements).toEqual([]);
    });

    it("shows a candidate only its exam's announcements made since its attempt started", async () => {
      const { exam, owner } = setup();
      const { exam: otherExam, owner: otherOwner } = setup();
      const before = await announce(exam.id, owner, 'Before anyone started');
      expect(before.statusCode).toBe(201);
      clock.advance(1000);
      const attempt = await startAttempt(app, exam.id);
      const elsewhere = await startAttempt(app, otherExam.id);
      clock.advance(1000);
      const sent = await announce(exam.id, owner, '  Question 2 has a typo: read "cell"  ');
      expect(sent.json()).toMatchObject({ text: 'Question 2 has a typo: read "cell"', at: clock.now().toISOString() });
      await announce(otherExam.id, otherOwner, 'For the other exam');

      const body = (await poll(attempt)).json();
      expect(body.announcements.map((a: { text: string }) => a.text)).toEqual(['Question 2 has a typo: read "cell"']);
      expect(body).toMatchObject({ deadline: attempt.deadline, submittedAt: null, endedAt: null });
      expect((await poll(elsewhere)).json().announcements.map((a: { text: string }) => a.text)).toEqual([
        'For the other exam',
      ]);
      // The owner's live view lists every announcement of the exam, newest first.
      expect((await live(exam.id, owner)).json().announcements.map((a: { text: string }) => a.text)).toEqual([
        'Question 2 has a typo: read "cell"',
        'Before anyone started',
      ]);
    });

    it('lists them oldest first, the one sent at the start included, and none sent after the submission', async () => {
      const { exam, owner } = setup();
      const attempt = await startAttempt(app, exam.id);
      await announce(exam.id, owner, 'At the start');
      clock.advance(1000);
      await announce(exam.id, owner, 'A second later');
      const texts = async () => (await poll(attempt)).json().announcements.map((a: { text: string }) => a.text);
      expect(await texts()).toEqual(['At the start', 'A second later']);
      const [first] = (await poll(attempt)).json().announcements;
      expect(first.at).toBe(new Date(clock.now().getTime() - 1000).toISOString());

      clock.advance(1000);
      await app.inject({ method: 'POST', url: `/api/attempts/${attempt.attemptId}/submit`, headers: attempt.headers });
      clock.advance(1000);
      await announce(exam.id, owner, 'After the submission');
      const body = (await poll(attempt)).json();
      expect(body.submittedAt).toBe(new Date(clock.now().getTime() - 1000).toISOString());
      expect(body.announcements.map((a: { text: string }) => a.text)).toEqual(['At the start', 'A second later']);
    });

    it('answers polls that arrive together each with its own attempt', async () => {
      const { exam, owner } = setup();
      const { exam: otherExam, owner: otherOwner } = setup();
      const mine = await startAttempt(app, exam.id);
      const theirs = await startAttempt(app, otherExam.id);
      await announce(exam.id, owner, 'For mine');
      await announce(otherExam.id, otherOwner, 'For theirs');
      const bodies = (await Promise.all([poll(mine), poll(theirs), poll(mine)])).map((response) => response.json());
      expect(bodies.map((body) => body.announcements.map((a: { text: string }) => a.text))).toEqual([
        ['For mine'],
        ['For theirs'],
        ['For mine'],
      ]);
      expect(bodies.map((body) => body.deadline)).toEqual([mine.deadline, theirs.deadline, mine.deadline]);
    });

    it("refuses another attempt's poll with 404", async () => {
      const { exam } = setup();
      const mine = await startAttempt(app, exam.id);
      const theirs = await startAttempt(app, exam.id);
      const response = await app.inject({
        method: 'GET',
        url: `/api/attempts/${theirs.attemptId}/live`,
        headers: mine.headers,
      });
      expect(response.statusCode).toBe(404);
    });
  });

  describe('POST /api/exams/:id/attempts/:attemptId/end', () => {
    it('submits the saved answers scored, records who ended it and refuses later writes', async () => {
      const { exam, owner } = setup();
      const attempt = await startAttempt(app, exam.id);
      await save(attempt, 0, CANARY);
      clock.advance(1000);
      await announce(exam.id, owner, 'Ten minutes left');
      clock.advance(1000);

      const response = await end(exam.id, attempt.attemptId, owner);
      expect(response.statusCode).toBe(200);
      const ended = response.json();
      expect(ended).toMatchObject({ answered: 1, total: 4, endedBy: `${exam.ownerId}@example.test` });
      const [result] = await app.db.select().from(results).where(eq(results.attemptId, attempt.attemptId));
      expect(result?.id).toBe(ended.resultId);
      expect(result?.score).toBe(1);

      const late = await save(attempt, 1, 'skin');
      expect(late.statusCode).toBe(409);
      expect(late.json().error.code).toBe('ATTEMPT_CLOSED');
      expect((await poll(attempt)).json()).toMatchObject({ endedAt: ended.endedAt, submittedAt: ended.endedAt });
      const row = (await live(exam.id, owner)).json().attempts[0];
      expect(row).toMatchObject({ status: 'ended', endedBy: ended.endedBy, secondsLeft: null });

      // The candidate's own submit after the end answers the same result.
      const submit = await app.inject({
        method: 'POST',
        url: `/api/attempts/${attempt.attemptId}/submit`,
        headers: attempt.headers,
      });
      expect(submit.json().resultId).toBe(ended.resultId);

      const log = await app.inject({
        method: 'GET',
        url: `/api/results/${ended.resultId}/announcements`,
        headers: owner,
      });
      expect(log.json()).toMatchObject({ endedBy: ended.endedBy, endedAt: ended.endedAt });
      expect(log.json().announcements.map((a: { text: string }) => a.text)).toEqual(['Ten minutes left']);
      const foreign = await app.inject({
        method: 'GET',
        url: `/api/results/${ended.resultId}/announcements`,
        headers: creatorHeaders(app, 'someone-else'),
      });
      expect(foreign.statusCode).toBe(404);
    });

    it('answers 409 for an attempt already submitted, and 404 to another creator or another exam', async () => {
      const { exam, owner } = setup();
      const { exam: otherExam } = setup();
      const attempt = await startAttempt(app, exam.id);
      expect((await end(exam.id, attempt.attemptId, creatorHeaders(app, 'someone-else'))).statusCode).toBe(404);
      expect((await end(otherExam.id, attempt.attemptId, owner)).statusCode).toBe(404);
      expect((await poll(attempt)).json().submittedAt).toBeNull();

      await app.inject({ method: 'POST', url: `/api/attempts/${attempt.attemptId}/submit`, headers: attempt.headers });
      const again = await end(exam.id, attempt.attemptId, owner);
      expect(again.statusCode).toBe(409);
      expect((await poll(attempt)).json().endedAt).toBeNull();
    });
  });

  describe('last seen', () => {
    it('is recorded by accepted candidate requests at most once per interval', async () => {
      const { exam } = setup();
      const attempt = await startAttempt(app, exam.id);
      const t0 = clock.now();
      await save(attempt, 1, 'a');
      await vi.waitFor(async () => expect(await lastSeen(attempt.attemptId)).toEqual(t0));

      clock.advance(PRESENCE_MIN_GAP_MS / 2);
      await save(attempt, 1, 'ab', 2);
      await poll(attempt);
      // Give the hook time to run: it must not have moved the time.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await lastSeen(attempt.attemptId)).toEqual(t0);

      clock.advance(PRESENCE_MIN_GAP_MS);
      const t1 = clock.now();
      await sendEvents(attempt, ['copy']);
      await vi.waitFor(async () => expect(await lastSeen(attempt.attemptId)).toEqual(t1));
    });

    it('is recorded for every candidate whose requests arrive together (one statement for them all)', async () => {
      const { exam } = setup();
      const together = [
        await startAttempt(app, exam.id),
        await startAttempt(app, exam.id),
        await startAttempt(app, exam.id),
      ];
      const t0 = clock.now();
      await Promise.all(together.map((attempt) => save(attempt, 1, 'x')));
      await vi.waitFor(async () => {
        for (const attempt of together) expect(await lastSeen(attempt.attemptId)).toEqual(t0);
      });
    });

    it('is held by the replica and written in one statement at the interval, or when the app closes', async () => {
      const { exam } = setup();
      const attempt = await startAttempt(app, exam.id);
      const repo = createLiveRepository(app.database);
      const store = databasePresence(repo, app.log, 60_000);
      const t0 = clock.now();
      await store.touch(attempt.attemptId, t0, PRESENCE_MIN_GAP_MS);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await repo.findLastSeen(attempt.attemptId)).toBeUndefined();
      await store.close();
      expect(await repo.findLastSeen(attempt.attemptId)).toEqual(t0);
      // Once closed, a touch (a request still finishing) is written at once.
      clock.advance(PRESENCE_MIN_GAP_MS + 1000);
      await store.touch(attempt.attemptId, clock.now(), PRESENCE_MIN_GAP_MS);
      expect(await repo.findLastSeen(attempt.attemptId)).toEqual(clock.now());
    });

    it("is not recorded by a refused request, nor by another attempt's token", async () => {
      const { exam } = setup();
      const attempt = await startAttempt(app, exam.id);
      const other = await startAttempt(app, exam.id);
      await app.inject({ method: 'GET', url: `/api/attempts/${attempt.attemptId}/live`, headers: other.headers });
      await save(attempt, 99, 'out of range');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await lastSeen(attempt.attemptId)).toBeUndefined();
      expect(await lastSeen(other.attemptId)).toBeUndefined();
    });
  });
});
