import { ResumeMessages } from '@exam/domain/attempt-binding';
import type { InternalExam } from '@exam/domain/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';

let addressCounter = 0;
/** An address of its own per test, so counts left by other runs on the same database never meet. */
const newAddress = () => `10.${(process.pid >> 8) & 255}.${(process.pid & 255) ^ 77}.${++addressCounter}`;
// A window of its own in each run, since test:pg keeps the counters of earlier runs.
const startOfRun = Date.UTC(2033, 0, 1, 9, 0, 0) + (Date.now() % 1000) * 3_600_000;

let candidate = 0;
const start = (target: TestApp, examId: string, remoteAddress: string) =>
  target.inject({
    method: 'POST',
    url: '/api/attempts',
    remoteAddress,
    payload: { examId, name: 'Hall', studentId: `H-${process.pid}-${++candidate}` },
  });

describe('an exam hall behind one NAT, with the default limits', () => {
  const clock = fakeClock(new Date(startOfRun));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
  });
  afterAll(() => app.close());

  it('lets 300 candidates behind one address start one exam within a minute, and refuses a flood past the bound', async () => {
    const exam = app.exams.put(makeExam());
    const hall = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 300; i++) {
      statuses.push((await start(app, exam.id, hall)).statusCode);
      if (i % 5 === 4) clock.advance(1000); // 300 starts over a minute
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(300);
    // The same address keeps going far past any hall (400 with retries and late-comers): refused.
    for (let i = 300; i < 400; i++) expect((await start(app, exam.id, hall)).statusCode).toBe(201);
    const flood = await start(app, exam.id, hall);
    expect(flood.statusCode).toBe(429);
    const retryAfter = Number(flood.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(flood.json().error.message).toBe(ResumeMessages.startsPerClient(retryAfter));
  }, 240_000);
});

describe('attempt starts counted per exam and address', () => {
  const clock = fakeClock(new Date(startOfRun + 1_800_000));
  const env = {
    START_LIMIT_PER_CLIENT: '1000',
    START_LIMIT_PER_EXAM: '12',
    START_LIMIT_PER_EXAM_CLIENT: '5',
    START_LIMIT_TRUSTED_NETWORKS: `192.0.2.0/24, 2001:db8:${(process.pid & 0xffff).toString(16)}::/48`,
  };
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ env, deps: { clock } });
  });
  afterAll(() => app.close());

  const startMany = async (exam: InternalExam, address: string, count: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) statuses.push((await start(app, exam.id, address)).statusCode);
    return statuses;
  };

  it("does not let one flooding address use up the exam's allowance for the hall's address", async () => {
    const exam = app.exams.put(makeExam());
    const flooder = await startMany(exam, newAddress(), 20);
    expect(flooder.filter((s) => s === 201)).toHaveLength(5);
    expect(flooder.filter((s) => s === 429)).toHaveLength(15);
    expect(await startMany(exam, newAddress(), 5)).toEqual([201, 201, 201, 201, 201]);
  });

  it("does not let a flood of one exam from the hall's address refuse another exam's starts there", async () => {
    const hall = newAddress();
    const flooded = app.exams.put(makeExam());
    expect((await startMany(flooded, hall, 8)).filter((s) => s === 429)).toHaveLength(3);
    expect(await startMany(app.exams.put(makeExam()), hall, 5)).toEqual([201, 201, 201, 201, 201]);
  });

  it('raises the per-address allowance to 1.25 times the candidates an exam expects', async () => {
    const exam = app.exams.put(makeExam({ codingWorkspace: { ...makeExam().codingWorkspace, expectedCandidates: 8 } }));
    const statuses = await startMany(exam, newAddress(), 11);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.at(-1)).toBe(429);
  });

  it('does not count roster exams per address: exam-service admits only the roster', async () => {
    const exam = app.exams.put(makeExam({ access: 'roster' }));
    expect((await startMany(exam, newAddress(), 9)).every((s) => s === 201)).toBe(true);
  });

  it('does not count configured trusted networks per address, but still per exam', async () => {
    const exam = app.exams.put(makeExam());
    const centre = `192.0.2.${(process.pid % 200) + 1}`;
    const statuses = await startMany(exam, centre, 13);
    expect(statuses).toEqual([...Array<number>(12).fill(201), 429]);
    const v6 = app.exams.put(makeExam());
    const v6centre = `2001:db8:${(process.pid & 0xffff).toString(16)}:7::1`;
    expect((await startMany(v6, v6centre, 8)).every((s) => s === 201)).toBe(true);
  });
});
