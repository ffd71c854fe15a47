import { ResumeMessages } from '@exam/domain/attempt-binding';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';

let addressCounter = 0;
/** A client address of its own per test, so counts left by other runs on the same database never meet. */
const newAddress = () => `10.${(process.pid >> 8) & 255}.${process.pid & 255}.${++addressCounter}`;

describe('attempt start limits', () => {
  // A window of its own in each run, since test:pg keeps the counters of earlier runs.
  const clock = fakeClock(new Date(Date.UTC(2032, 0, 1, 9, 0, 0) + (Date.now() % 1000) * 600_000));
  const env = {
    START_LIMIT_PER_CLIENT: '3',
    START_LIMIT_PER_CLIENT_WINDOW_SECONDS: '600',
    START_LIMIT_PER_EXAM: '4',
    START_LIMIT_PER_EXAM_WINDOW_SECONDS: '60',
  };
  let app: TestApp;
  let replica: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ env, deps: { clock } });
    replica = await buildTestApp({ env, deps: { clock, database: app.database } });
  });
  afterAll(async () => {
    await replica.close();
    await app.close();
  });

  let candidate = 0;
  const start = (target: TestApp, examId: string, remoteAddress: string, extra: Record<string, string> = {}) =>
    target.inject({
      method: 'POST',
      url: '/api/attempts',
      remoteAddress,
      payload: { examId, name: 'Flood', studentId: `F-${++candidate}`, ...extra },
    });

  it('limits briefings per client on the same limit, counted apart from starts', async () => {
    const exam = replica.exams.put(app.exams.put(makeExam()));
    const address = newAddress();
    const brief = (target: TestApp) =>
      target.inject({
        method: 'POST',
        url: '/api/attempts/briefing',
        remoteAddress: address,
        payload: { examId: exam.id, name: 'Flood', studentId: `F-${++candidate}` },
      });
    for (const target of [app, replica, app]) expect((await brief(target)).statusCode).toBe(200);
    const limited = await brief(replica);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await start(app, exam.id, address)).statusCode).toBe(201);
  });

  it('answers 429 with Retry-After once one client has started its limit, counted across replicas', async () => {
    const exam = app.exams.put(makeExam());
    replica.exams.put(exam);
    const address = newAddress();
    for (const target of [app, replica, app]) expect((await start(target, exam.id, address)).statusCode).toBe(201);
    const refused = await start(replica, exam.id, address);
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(refused.json().error).toMatchObject({
      code: 'RATE_LIMITED',
      message: ResumeMessages.startsPerClient(retryAfter),
    });
    // Another client is not affected; the same one may start again in the next window.
    expect((await start(app, exam.id, newAddress())).statusCode).toBe(201);
    clock.advance(retryAfter * 1000);
    expect((await start(app, exam.id, address)).statusCode).toBe(201);
  });

  it('still lets a candidate resume with the resume secret after their client reached the limit', async () => {
    const exam = app.exams.put(makeExam());
    const address = newAddress();
    const first = await start(app, exam.id, address, { studentId: 'S-keep' });
    expect(first.statusCode).toBe(201);
    await start(app, exam.id, address);
    await start(app, exam.id, address);
    expect((await start(app, exam.id, address)).statusCode).toBe(429);
    const resumed = await start(app, exam.id, address, {
      studentId: 'S-keep',
      resumeSecret: first.json().resumeSecret,
    });
    expect(resumed.statusCode).toBe(201);
    expect(resumed.json().resumed).toBe(true);
  });

  it('answers 429 once an exam has had its limit of new attempts in a minute, from any clients', async () => {
    const exam = app.exams.put(makeExam());
    for (let i = 0; i < 4; i++) expect((await start(app, exam.id, newAddress())).statusCode).toBe(201);
    const refused = await start(app, exam.id, newAddress());
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.json().error.message).toBe(ResumeMessages.startsPerExam(retryAfter));
    // Another exam is not affected.
    const other = app.exams.put(makeExam());
    expect((await start(app, other.id, newAddress())).statusCode).toBe(201);
  });

  it('counts an IPv6 client by its /64, so rotating the address within it does not reset the limit', async () => {
    const exam = app.exams.put(makeExam());
    const prefix = `2001:db8:${process.pid.toString(16)}:${(++addressCounter).toString(16)}`;
    for (let i = 1; i <= 3; i++) expect((await start(app, exam.id, `${prefix}::${i}`)).statusCode).toBe(201);
    expect((await start(app, exam.id, `${prefix}::ffff`)).statusCode).toBe(429);
  });

  it('counts a flood from one client: 10 starts in a row give 3 attempts and 7 refusals', async () => {
    const exam = app.exams.put(makeExam());
    const address = newAddress();
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await start(app, exam.id, address)).statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });
});
