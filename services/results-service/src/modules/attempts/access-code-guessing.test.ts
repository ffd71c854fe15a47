import { ACCESS_CODE_FIELD, RosterMessages } from '@exam/domain/roster';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';

let addressCounter = 0;
const newAddress = () => `10.${(process.pid >> 8) & 255}.${(process.pid & 255) ^ 99}.${++addressCounter}`;

describe('guessing an exam’s access code', () => {
  // A window of its own in each run, since test:pg keeps the counters of earlier runs.
  const clock = fakeClock(new Date(Date.UTC(2034, 0, 1, 9, 0, 0) + (Date.now() % 1000) * 3_600_000));
  const env = { ACCESS_CODE_FAILURES_PER_CLIENT: '5', ACCESS_CODE_FAILURES_PER_EXAM: '12' };
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ env, deps: { clock } });
  });
  afterAll(() => app.close());

  const codeExam = () => {
    const exam = app.exams.put(makeExam({ access: 'code' }));
    app.access.requireCode(exam.id, 'K7Q2M9');
    return exam;
  };
  let candidate = 0;
  const start = (examId: string, accessCode: string, remoteAddress: string, url = '/api/attempts') =>
    app.inject({
      method: 'POST',
      url,
      remoteAddress,
      payload: { examId, name: 'Guess', studentId: `G-${++candidate}`, accessCode },
    });

  it('answers 429 with Retry-After, naming accessCode, once one client has given its limit of wrong codes', async () => {
    const exam = codeExam();
    const guesser = newAddress();
    for (let i = 0; i < 5; i++) {
      const wrong = await start(exam.id, String(1000 + i), guesser);
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json().error.issues).toEqual([{ path: ACCESS_CODE_FIELD, message: RosterMessages.wrongCode }]);
    }
    const limited = await start(exam.id, '1005', guesser);
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(limited.json().error.message).toBe(RosterMessages.tooManyCodes(retryAfter));
    expect(limited.json().error.issues[0].path).toBe(ACCESS_CODE_FIELD);
    // The briefing admits the same way, so it is no way around the limit.
    expect((await start(exam.id, '1006', guesser, '/api/attempts/briefing')).statusCode).toBe(429);
    // Another client with the right code is not affected; the guesser may try again in the next window.
    expect((await start(exam.id, 'K7Q2M9', newAddress())).statusCode).toBe(201);
    clock.advance(retryAfter * 1000);
    expect((await start(exam.id, 'K7Q2M9', guesser)).statusCode).toBe(201);
  });

  it('counts wrong codes per exam from every client, so a guess spread over many addresses stops too', async () => {
    const exam = codeExam();
    let refusedAt = -1;
    for (let i = 0; i < 20 && refusedAt < 0; i++) {
      const res = await start(exam.id, String(2000 + i), newAddress());
      if (res.statusCode === 429) refusedAt = i;
      else expect(res.statusCode).toBe(403);
    }
    expect(refusedAt).toBe(12);
    // Other exams are not affected.
    const other = codeExam();
    expect((await start(other.id, 'K7Q2M9', newAddress())).statusCode).toBe(201);
  });

  it('does not count a missing code or a right one as a failure', async () => {
    const exam = codeExam();
    const hall = newAddress();
    for (let i = 0; i < 8; i++) {
      expect((await start(exam.id, '', hall)).statusCode).toBe(403);
      expect((await start(exam.id, 'K7Q2M9', hall)).statusCode).toBe(201);
    }
  });
});
