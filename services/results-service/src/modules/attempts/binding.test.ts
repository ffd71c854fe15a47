import { WindowMessages } from '@exam/domain/cohort';
import { RESUME_CODE_ALPHABET, ResumeMessages } from '@exam/domain/attempt-binding';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';

type Start = { name?: string; studentId: string; resumeSecret?: string; resumeCode?: string };

describe('binding an attempt to its candidate', () => {
  const clock = fakeClock(new Date('2031-03-01T09:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
  });
  afterAll(() => app.close());

  let addresses = 0;
  /** A client address of its own, so wrong codes counted per client in one test never meet another's. */
  const nextAddress = () => `10.${(process.pid >> 8) & 255}.${process.pid & 255}.${++addresses}`;
  const post = (examId: string, body: Start, target: TestApp = app, remoteAddress = '127.0.0.1') =>
    target.inject({
      method: 'POST',
      url: '/api/attempts',
      remoteAddress,
      payload: { examId, name: body.name ?? 'Mallory', ...body },
    });
  const saveAnswer = async (attempt: { attemptId: string; headers: Record<string, string> }, answer: string) => {
    const saved = await app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/answers/1`,
      headers: attempt.headers,
      payload: { answer, seq: 1 },
    });
    expect(saved.statusCode).toBe(200);
  };
  const answersOf = async (token: string, attemptId: string) => {
    const state = await app.inject({
      method: 'GET',
      url: `/api/attempts/${attemptId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(state.statusCode).toBe(200);
    return state.json<{ answers: Record<string, { answer: string }> }>().answers;
  };
  /** The victim's attempt with a saved answer. */
  async function victim(studentId: string) {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id, { name: 'Vera Victim', studentId });
    await saveAnswer(attempt, 'victim-secret-answer');
    return { exam, attempt };
  }

  it('gives the first start a high-entropy resume secret and an 8-character Crockford resume code', async () => {
    const exam = app.exams.put(makeExam());
    const first = await startAttempt(app, exam.id);
    expect(first.resumed).toBe(false);
    expect(first.resumeSecret?.length).toBeGreaterThanOrEqual(43);
    expect(first.resumeCode).toMatch(new RegExp(`^[${RESUME_CODE_ALPHABET}]{8}$`));
    expect(first.resumeCode).not.toMatch(/[ILOU]/);
  });

  it('refuses a start with a known candidate ID but no secret or code with 403 naming the resumeCode field, revealing nothing', async () => {
    const { exam, attempt } = await victim('S-takeover');
    for (const name of ['Mallory', 'Vera Victim']) {
      const stolen = await post(exam.id, { name, studentId: 'S-takeover' });
      expect(stolen.statusCode).toBe(403);
      const body = stolen.json();
      expect(body.error).toEqual({
        code: 'FORBIDDEN',
        message: ResumeMessages.required,
        issues: [{ path: 'resumeCode', message: ResumeMessages.required }],
      });
      expect(stolen.body).not.toContain(attempt.attemptId);
      expect(stolen.body).not.toContain('victim-secret-answer');
      expect(stolen.body).not.toContain('Vera');
      expect(stolen.headers.authorization).toBeUndefined();
    }
  });

  it('resumes silently with the resume secret this browser got', async () => {
    const { exam, attempt } = await victim('S-secret');
    const again = await startAttempt(app, exam.id, { studentId: 'S-secret', resumeSecret: attempt.resumeSecret });
    expect(again).toMatchObject({ attemptId: attempt.attemptId, resumed: true });
    expect(again.resumeSecret).toBeUndefined();
    expect(await answersOf(again.token, again.attemptId)).toMatchObject({ 1: { answer: 'victim-secret-answer' } });
  });

  it("refuses another attempt's secret", async () => {
    const { exam } = await victim('S-other-secret');
    const mine = await startAttempt(app, exam.id, { studentId: 'S-mine' });
    const stolen = await post(exam.id, { studentId: 'S-other-secret', resumeSecret: mine.resumeSecret });
    expect(stolen.statusCode).toBe(403);
  });

  it('resumes on another device with the resume code, whose new secret then resumes that device silently', async () => {
    const { exam, attempt } = await victim('S-code');
    const typed = `${attempt.resumeCode!.slice(0, 4).toLowerCase()}-${attempt.resumeCode!.slice(4)} `;
    const other = await startAttempt(app, exam.id, { studentId: 'S-code', resumeCode: typed });
    expect(other).toMatchObject({ attemptId: attempt.attemptId, resumed: true });
    expect(other.resumeSecret).toBeDefined();
    expect(other.resumeSecret).not.toBe(attempt.resumeSecret);
    expect(await answersOf(other.token, other.attemptId)).toMatchObject({ 1: { answer: 'victim-secret-answer' } });
    // Both devices now resume silently.
    for (const resumeSecret of [attempt.resumeSecret, other.resumeSecret]) {
      expect((await post(exam.id, { studentId: 'S-code', resumeSecret })).statusCode).toBe(201);
    }
  });

  it('limits wrong codes per client: ten from one address get it 429 on every replica, while the holder elsewhere still resumes', async () => {
    const { exam, attempt } = await victim('S-guess');
    const replica = await buildTestApp({ deps: { clock, database: app.database } });
    replica.exams.put(exam);
    const attacker = nextAddress();
    try {
      for (let i = 0; i < 10; i++) {
        const wrong = await post(
          exam.id,
          { studentId: 'S-guess', resumeCode: `ZZZZZZ${i}Z` },
          i % 2 ? replica : app,
          attacker,
        );
        expect(wrong.statusCode).toBe(403);
        expect(wrong.json().error.message).toBe(ResumeMessages.wrong);
        expect(wrong.json().error.issues).toEqual([{ path: 'resumeCode', message: ResumeMessages.wrong }]);
      }
      for (const target of [app, replica]) {
        const blocked = await post(exam.id, { studentId: 'S-guess', resumeCode: 'ZZZZZZZZ' }, target, attacker);
        expect(blocked.statusCode).toBe(429);
        const retryAfter = Number(blocked.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(600);
        expect(blocked.json().error.message).toBe(ResumeMessages.tooMany(retryAfter));
        expect(blocked.body).not.toContain(attempt.attemptId);
      }
      // The storm never locks the attempt: its holder, on another network, resumes with the right code.
      const right = await post(
        exam.id,
        { studentId: 'S-guess', resumeCode: attempt.resumeCode },
        replica,
        nextAddress(),
      );
      expect(right.statusCode).toBe(201);
      expect(right.json().attemptId).toBe(attempt.attemptId);
    } finally {
      await replica.close();
    }
  });

  it('lets the right code through after a storm of wrong codes from many clients', async () => {
    const { exam, attempt } = await victim('S-storm');
    for (let client = 0; client < 6; client++) {
      const address = nextAddress();
      for (let i = 0; i < 10; i++) {
        expect(
          (await post(exam.id, { studentId: 'S-storm', resumeCode: `Z${i}Z${client}ZZZZ` }, app, address)).statusCode,
        ).toBe(403);
      }
    }
    const right = await post(exam.id, { studentId: 'S-storm', resumeCode: attempt.resumeCode }, app, nextAddress());
    expect(right.statusCode).toBe(201);
    expect(right.json().attemptId).toBe(attempt.attemptId);
  });

  const unlock = async (examId: string, ownerId: string, studentId: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/attempts/unlock',
      headers: creatorHeaders(app, ownerId),
      payload: { examId, studentId },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ unlockCode: string; unlockedUntil: string; attemptId: string }>();
  };

  it('gives the examiner a one-time unlock code, and a start with the candidate ID alone after the unlock takes nothing', async () => {
    const { exam, attempt } = await victim('S-poll');
    const { unlockCode } = await unlock(exam.id, exam.ownerId, 'S-poll');
    expect(unlockCode).toMatch(new RegExp(`^[${RESUME_CODE_ALPHABET}]{8}$`));
    // Someone polling the victim's ID gets nothing from the unlock.
    for (const name of ['Mallory', 'Vera Victim']) {
      const polled = await post(exam.id, { name, studentId: 'S-poll' });
      expect(polled.statusCode).toBe(403);
      expect(polled.json().error.message).toBe(ResumeMessages.required);
      expect(polled.body).not.toContain('victim-secret-answer');
    }
    // The candidate the examiner handed the code to resumes with it, once.
    const resumed = await post(exam.id, { studentId: 'S-poll', resumeCode: unlockCode });
    expect(resumed.statusCode).toBe(201);
    expect(resumed.json().attemptId).toBe(attempt.attemptId);
    expect((await post(exam.id, { studentId: 'S-poll', resumeCode: unlockCode })).statusCode).toBe(403);
  });

  it('resumes once with the unlock code after the owner unlocks it, with a new resume code that replaces the old', async () => {
    const { exam, attempt } = await victim('S-unlock');
    const unlocked = await app.inject({
      method: 'POST',
      url: '/api/attempts/unlock',
      headers: creatorHeaders(app, exam.ownerId),
      payload: { examId: exam.id, studentId: ' s-UNLOCK ' },
    });
    expect(unlocked.statusCode).toBe(200);
    const { unlockCode } = unlocked.json<{ unlockCode: string }>();
    expect(unlocked.json()).toEqual({
      attemptId: attempt.attemptId,
      name: 'Vera Victim',
      studentId: 'S-unlock',
      unlockCode,
      unlockedUntil: new Date(clock.now().getTime() + 10 * 60_000).toISOString(),
    });
    const resumed = await post(exam.id, { studentId: 'S-unlock', resumeCode: unlockCode.toLowerCase() });
    expect(resumed.statusCode).toBe(201);
    const body = resumed.json();
    expect(body).toMatchObject({ attemptId: attempt.attemptId, resumed: true });
    expect(body.resumeCode).toMatch(/^[0-9A-Z]{8}$/);
    expect(body.resumeCode).not.toBe(attempt.resumeCode);
    expect(await answersOf(body.token, body.attemptId)).toMatchObject({ 1: { answer: 'victim-secret-answer' } });
    // Once only; and the old code stopped working.
    expect((await post(exam.id, { studentId: 'S-unlock', resumeCode: unlockCode })).statusCode).toBe(403);
    expect((await post(exam.id, { studentId: 'S-unlock', resumeCode: attempt.resumeCode })).statusCode).toBe(403);
    expect((await post(exam.id, { studentId: 'S-unlock', resumeCode: body.resumeCode })).statusCode).toBe(201);
  });

  it('lets an unlock expire after its minutes', async () => {
    const { exam } = await victim('S-expire');
    const headers = creatorHeaders(app, exam.ownerId);
    const url = '/api/attempts/unlock';
    expect(
      (await app.inject({ method: 'POST', url, headers, payload: { examId: exam.id, studentId: 'S-expire' } }))
        .statusCode,
    ).toBe(200);
    const { unlockCode } = (
      await app.inject({ method: 'POST', url, headers, payload: { examId: exam.id, studentId: 'S-expire' } })
    ).json<{ unlockCode: string }>();
    clock.advance(10 * 60_000 + 1000);
    expect((await post(exam.id, { studentId: 'S-expire', resumeCode: unlockCode })).statusCode).toBe(403);
  });

  it('refuses an unlock from another creator with 404 and leaves the attempt locked', async () => {
    const { exam, attempt } = await victim('S-not-yours');
    const refused = await app.inject({
      method: 'POST',
      url: '/api/attempts/unlock',
      headers: creatorHeaders(app, 'someone-else'),
      payload: { examId: exam.id, studentId: 'S-not-yours' },
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toContain(attempt.attemptId);
    expect((await post(exam.id, { studentId: 'S-not-yours' })).statusCode).toBe(403);
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/attempts/unlock',
      payload: { examId: exam.id, studentId: 'S-not-yours' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers an unlock without a candidate ID with 400 naming the field', async () => {
    const exam = app.exams.put(makeExam());
    const bad = await app.inject({
      method: 'POST',
      url: '/api/attempts/unlock',
      headers: creatorHeaders(app, exam.ownerId),
      payload: { examId: exam.id, studentId: '  ' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.issues[0].path).toBe('studentId');
  });

  it('finds the same attempt for candidate IDs that differ in case, surrounding spaces or width', async () => {
    const { exam, attempt } = await victim('S-Case-7');
    for (const studentId of ['s-case-7', '  S-CASE-7 ', 'Ｓ-ＣＡＳＥ-７']) {
      const without = await post(exam.id, { studentId });
      expect(without.statusCode).toBe(403);
      const withSecret = await post(exam.id, { studentId, resumeSecret: attempt.resumeSecret });
      expect(withSecret.statusCode).toBe(201);
      expect(withSecret.json().attemptId).toBe(attempt.attemptId);
    }
  });

  it('tells a candidate whose ID someone else started first to ask the examiner, and the unlock lets them in', async () => {
    const exam = app.exams.put(makeExam());
    await startAttempt(app, exam.id, { name: 'Mallory', studentId: 'S-first' });
    const real = await post(exam.id, { name: 'Real Candidate', studentId: 'S-first' });
    expect(real.statusCode).toBe(403);
    expect(real.json().error.message).toMatch(/unlock code your examiner gives you/);
    const { unlockCode } = await unlock(exam.id, exam.ownerId, 'S-first');
    expect((await post(exam.id, { name: 'Real Candidate', studentId: 'S-first' })).statusCode).toBe(403);
    const resumed = await post(exam.id, { name: 'Real Candidate', studentId: 'S-first', resumeCode: unlockCode });
    expect(resumed.statusCode).toBe(201);
  });

  it('answers 409 for a submitted attempt only to a caller who may resume it', async () => {
    const { exam, attempt } = await victim('S-submitted');
    const submitted = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
    });
    expect(submitted.statusCode).toBe(200);
    expect((await post(exam.id, { studentId: 'S-submitted' })).statusCode).toBe(403);
    const closed = await post(exam.id, { studentId: 'S-submitted', resumeCode: attempt.resumeCode });
    expect(closed.statusCode).toBe(409);
    // With one attempt allowed, the candidate who may resume it is told they have used it.
    expect(closed.json().error.message).toBe(WindowMessages.noAttemptsLeft);
  });
});
