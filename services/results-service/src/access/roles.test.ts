import { encodeChoices } from '@exam/domain/grading';
import type { AuditEvent } from '@exam/domain/roles';
import { CAPABILITY_REFUSALS } from '@exam/domain/roles';
import type { ResultDetail, ResultList } from '@exam/domain/result';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, type TestApp } from '../testing/app.ts';
import { makePointsExam } from '../testing/exams.ts';
import { fakeClock } from '../testing/fakes.ts';
import { sitExam } from '../testing/sitting.ts';

/** The members of the shared exam, by the creator id each one signs in with. */
const MEMBERS = [
  { creatorId: 'editor-1', email: 'editor-1@example.test', role: 'editor', mayRelease: false },
  { creatorId: 'grader-1', email: 'grader-1@example.test', role: 'grader', mayRelease: false },
  { creatorId: 'grader-r', email: 'grader-r@example.test', role: 'grader', mayRelease: true },
  { creatorId: 'proctor-1', email: 'proctor-1@example.test', role: 'proctor', mayRelease: false },
  { creatorId: 'viewer-1', email: 'viewer-1@example.test', role: 'viewer', mayRelease: false },
] as const;
type Who = 'owner' | 'editor-1' | 'grader-1' | 'grader-r' | 'proctor-1' | 'viewer-1' | 'stranger';
const EVERYONE: Who[] = ['owner', 'editor-1', 'grader-1', 'grader-r', 'proctor-1', 'viewer-1', 'stranger'];

describe('roles on a shared exam in results-service', () => {
  const clock = fakeClock(new Date('2034-03-01T09:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
  });
  afterAll(() => app.close());

  async function sharedExam() {
    const exam = app.exams.put(makePointsExam({ members: MEMBERS }));
    const studentId = `S-roles-${exam.id}`;
    const { resultId } = await sitExam(app, exam.id, { 0: 'a', 1: encodeChoices(['a', 'b']), 2: 'x' }, { studentId });
    const headersOf = (who: Who) => creatorHeaders(app, who === 'owner' ? exam.ownerId : who);
    return { exam, resultId, studentId, headersOf };
  }

  /** Each creator's status for one request. */
  async function statuses(
    request: (who: Who) => Promise<{ statusCode: number; json: () => unknown }>,
    who: Who[] = EVERYONE,
  ) {
    const out: Partial<Record<Who, number>> = {};
    for (const w of who) out[w] = (await request(w)).statusCode;
    return out;
  }

  const GRADES = [
    { questionIndex: 2, points: 1, feedback: '' },
    { questionIndex: 3, points: 4, feedback: '', criteria: ['thesis', 'sources'] },
  ];

  it('lets every role that reads results read a result, refuses proctors and viewers (403) and hides it from strangers (404)', async () => {
    const { resultId, headersOf } = await sharedExam();
    const read = (who: Who) => app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: headersOf(who) });
    expect(await statuses(read)).toEqual({
      owner: 200,
      'editor-1': 200,
      'grader-1': 200,
      'grader-r': 200,
      'proctor-1': 403,
      'viewer-1': 403,
      stranger: 404,
    });
    expect((await read('proctor-1')).json()).toMatchObject({
      error: { code: 'FORBIDDEN', message: CAPABILITY_REFUSALS['results:read'] },
    });
    const timeline = (who: Who) =>
      app.inject({ method: 'GET', url: `/api/results/${resultId}/timeline`, headers: headersOf(who) });
    expect(await statuses(timeline, ['grader-1', 'viewer-1', 'stranger'])).toEqual({
      'grader-1': 200,
      'viewer-1': 403,
      stranger: 404,
    });
  });

  it('lets editors and graders mark, attributing the mark to the member, and refuses proctors and viewers', async () => {
    const { resultId, headersOf } = await sharedExam();
    const patch = (who: Who) =>
      app.inject({
        method: 'PATCH',
        url: `/api/results/${resultId}`,
        headers: headersOf(who),
        payload: { grading: [{ questionIndex: 2, points: 1, feedback: 'ok' }] },
      });
    expect(await statuses(patch, ['proctor-1', 'viewer-1', 'stranger'])).toEqual({
      'proctor-1': 403,
      'viewer-1': 403,
      stranger: 404,
    });
    const byGrader = await patch('grader-1');
    expect(byGrader.statusCode).toBe(200);
    expect(byGrader.json<ResultDetail>().history.at(-1)).toMatchObject({ by: 'grader-1@example.test', kind: 'grade' });
    expect((await patch('editor-1')).statusCode).toBe(200);
  });

  it('lets a grader release only when the owner allowed it, one result or in bulk; editors release, proctors do not', async () => {
    const { exam, resultId, headersOf } = await sharedExam();
    const marked = await app.inject({
      method: 'PATCH',
      url: `/api/results/${resultId}`,
      headers: headersOf('owner'),
      payload: { grading: GRADES },
    });
    expect(marked.json<ResultDetail>().status).toBe('graded');
    const release = (who: Who) =>
      app.inject({
        method: 'POST',
        url: `/api/results/${resultId}/release`,
        headers: headersOf(who),
        payload: { released: true },
      });
    expect(await statuses(release)).toEqual({
      owner: 200,
      'editor-1': 200,
      'grader-1': 403,
      'grader-r': 200,
      'proctor-1': 403,
      'viewer-1': 403,
      stranger: 404,
    });
    expect((await release('grader-1')).json()).toMatchObject({
      error: { code: 'FORBIDDEN', message: CAPABILITY_REFUSALS['results:release'] },
    });
    const bulk = (who: Who) =>
      app.inject({
        method: 'POST',
        url: '/api/results/bulk',
        headers: headersOf(who),
        payload: { action: 'unrelease', resultIds: [resultId] },
      });
    expect(await statuses(bulk, ['grader-1', 'stranger', 'grader-r'])).toEqual({
      'grader-1': 403,
      stranger: 404,
      'grader-r': 200,
    });
    const examRelease = (who: Who) =>
      app.inject({
        method: 'POST',
        url: `/api/exams/${exam.id}/release`,
        headers: headersOf(who),
        payload: { released: true },
      });
    expect(await statuses(examRelease, ['grader-1', 'viewer-1', 'stranger', 'grader-r'])).toEqual({
      'grader-1': 403,
      'viewer-1': 403,
      stranger: 404,
      'grader-r': 200,
    });
  });

  it('gives proctors and editors the live view and its controls, and refuses graders and viewers', async () => {
    const { exam, studentId, headersOf } = await sharedExam();
    const live = (who: Who) =>
      app.inject({ method: 'GET', url: `/api/exams/${exam.id}/live`, headers: headersOf(who) });
    expect(await statuses(live)).toEqual({
      owner: 200,
      'editor-1': 200,
      'grader-1': 403,
      'grader-r': 403,
      'proctor-1': 200,
      'viewer-1': 403,
      stranger: 404,
    });
    const announce = (who: Who) =>
      app.inject({
        method: 'POST',
        url: `/api/exams/${exam.id}/announcements`,
        headers: headersOf(who),
        payload: { text: `From ${who}` },
      });
    expect(await statuses(announce, ['proctor-1', 'grader-1', 'viewer-1', 'stranger'])).toEqual({
      'proctor-1': 201,
      'grader-1': 403,
      'viewer-1': 403,
      stranger: 404,
    });
    // The proctor's announcement is the exam's: its owner sees it in the live view.
    const seen = (await live('owner')).json<{ announcements: { text: string }[] }>();
    expect(seen.announcements.map((a) => a.text)).toContain('From proctor-1');
    const unlock = (who: Who) =>
      app.inject({
        method: 'POST',
        url: '/api/attempts/unlock',
        headers: headersOf(who),
        payload: { examId: exam.id, studentId },
      });
    expect(await statuses(unlock, ['proctor-1', 'grader-1', 'stranger'])).toEqual({
      'proctor-1': 200,
      'grader-1': 403,
      stranger: 404,
    });
    const extraTime = (who: Who) =>
      app.inject({
        method: 'PUT',
        url: `/api/exams/${exam.id}/overrides/${studentId}`,
        headers: headersOf(who),
        payload: { extraMinutes: 15 },
      });
    expect(await statuses(extraTime, ['proctor-1', 'viewer-1', 'stranger'])).toEqual({
      'proctor-1': 200,
      'viewer-1': 403,
      stranger: 404,
    });
  });

  it('gives viewers and editors the insights, and refuses graders and proctors', async () => {
    const { exam, headersOf } = await sharedExam();
    const insights = (who: Who) =>
      app.inject({ method: 'GET', url: `/api/exams/${exam.id}/insights`, headers: headersOf(who) });
    expect(await statuses(insights)).toEqual({
      owner: 200,
      'editor-1': 200,
      'grader-1': 403,
      'grader-r': 403,
      'proctor-1': 403,
      'viewer-1': 200,
      stranger: 404,
    });
  });

  it('lists a shared exam’s results to the members who read results, never to proctors, viewers or strangers', async () => {
    const { exam, resultId, headersOf } = await sharedExam();
    const listed = async (who: Who) =>
      (await app.inject({ method: 'GET', url: `/api/results?examId=${exam.id}`, headers: headersOf(who) }))
        .json<ResultList>()
        .results.map((r) => r.id);
    expect(await listed('grader-1')).toEqual([resultId]);
    expect(await listed('editor-1')).toEqual([resultId]);
    expect(await listed('proctor-1')).toEqual([]);
    expect(await listed('viewer-1')).toEqual([]);
    expect(await listed('stranger')).toEqual([]);
    const summary = async (who: Who) =>
      (await app.inject({ method: 'GET', url: '/api/results/summary', headers: headersOf(who) }))
        .json<{ exams: { examId: string }[] }>()
        .exams.map((e) => e.examId);
    expect(await summary('grader-1')).toContain(exam.id);
    expect(await summary('proctor-1')).not.toContain(exam.id);
    expect(await summary('stranger')).not.toContain(exam.id);
  });

  it('lets owners and editors delete a result, recording who did; refuses graders, proctors and viewers (403) and strangers (404)', async () => {
    const { exam, resultId, headersOf } = await sharedExam();
    const remove = (who: Who, id = resultId) =>
      app.inject({ method: 'DELETE', url: `/api/results/${id}`, headers: headersOf(who) });
    expect(await statuses((w) => remove(w), ['grader-1', 'grader-r', 'proctor-1', 'viewer-1', 'stranger'])).toEqual({
      'grader-1': 403,
      'grader-r': 403,
      'proctor-1': 403,
      'viewer-1': 403,
      stranger: 404,
    });
    expect((await remove('grader-1')).json()).toMatchObject({
      error: { code: 'FORBIDDEN', message: CAPABILITY_REFUSALS['results:delete'] },
    });
    const deleted = await remove('editor-1');
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ id: resultId });
    const gone = await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: headersOf('owner') });
    expect(gone.statusCode).toBe(404);
    expect((await remove('owner')).statusCode).toBe(404);

    const second = await sitExam(app, exam.id, { 0: 'a' }, { studentId: `S-second-${exam.id}` });
    expect((await remove('owner', second.resultId)).statusCode).toBe(200);
    const audit = await app.inject({
      method: 'GET',
      url: `/internal/exams/${exam.id}/audit-events`,
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
    });
    const events = audit.json<{ events: AuditEvent[] }>().events.filter((e) => e.action === 'result.deleted');
    expect(events.map((e) => [e.subject, e.actorId, e.actorEmail])).toEqual(
      expect.arrayContaining([
        [resultId, 'editor-1', 'editor-1@example.test'],
        [second.resultId, exam.ownerId, expect.any(String)],
      ]),
    );
    expect(events).toHaveLength(2);
  });

  it('records who graded, released, unreleased, unlocked, extended time and announced, newest first, for exam-service', async () => {
    const { exam, resultId, studentId, headersOf } = await sharedExam();
    const act = (who: Who, method: 'PATCH' | 'POST' | 'PUT', url: string, payload: object) =>
      app.inject({ method, url, headers: headersOf(who), payload }).then((r) => {
        expect(r.statusCode, `${method} ${url}`).toBeLessThan(300);
        clock.advance(1_000);
      });
    await act('grader-1', 'PATCH', `/api/results/${resultId}`, { grading: GRADES });
    await act('grader-r', 'POST', `/api/results/${resultId}/release`, { released: true });
    await act('editor-1', 'POST', '/api/results/bulk', { action: 'unrelease', resultIds: [resultId] });
    await act('proctor-1', 'POST', '/api/attempts/unlock', { examId: exam.id, studentId });
    await act('proctor-1', 'PUT', `/api/exams/${exam.id}/overrides/${studentId}`, { extraMinutes: 10 });
    await act('proctor-1', 'POST', `/api/exams/${exam.id}/announcements`, { text: 'Ten minutes left' });
    await act('owner', 'POST', `/api/exams/${exam.id}/regrade?dryRun=false`, {});

    const read = (query = '') =>
      app.inject({
        method: 'GET',
        url: `/internal/exams/${exam.id}/audit-events${query}`,
        headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
      });
    const { events } = (await read()).json<{ events: AuditEvent[] }>();
    expect(events.map((e) => [e.action, e.actorId, e.actorEmail])).toEqual([
      ['announcement.sent', 'proctor-1', 'proctor-1@example.test'],
      ['attempt.time-extended', 'proctor-1', 'proctor-1@example.test'],
      ['attempt.unlocked', 'proctor-1', 'proctor-1@example.test'],
      ['result.unreleased', 'editor-1', 'editor-1@example.test'],
      ['result.released', 'grader-r', 'grader-r@example.test'],
      ['result.graded', 'grader-1', 'grader-1@example.test'],
      ['result.graded', 'grader-1', 'grader-1@example.test'],
    ]);
    const graded = events.filter((e) => e.action === 'result.graded');
    const byQuestion = (e: AuditEvent) => Number(e.detail.questionIndex);
    expect(graded.sort((a, b) => byQuestion(a) - byQuestion(b)).map((e) => [e.subject, e.detail])).toEqual([
      [resultId, { questionIndex: 2, from: null, to: 1 }],
      [resultId, { questionIndex: 3, from: null, to: 4 }],
    ]);
    expect(events.find((e) => e.action === 'attempt.time-extended')).toMatchObject({
      subject: studentId,
      detail: { from: { extraMinutes: null }, to: { extraMinutes: 10 } },
    });
    expect(events.every((e) => e.examId === exam.id)).toBe(true);

    // Paging: older than the third event, two at a time.
    const older = (await read(`?before=${encodeURIComponent(events[2]!.at)}&limit=2`)).json<{ events: AuditEvent[] }>();
    expect(older.events.map((e) => e.action)).toEqual(['result.unreleased', 'result.released']);
    // The two marks share a millisecond: a page ending on the first resumes at the second by its id.
    const [firstMark, secondMark] = [events[5]!, events[6]!];
    expect(firstMark.at).toBe(secondMark.at);
    const rest = (
      await read(`?before=${encodeURIComponent(firstMark.at)}&beforeId=${encodeURIComponent(firstMark.id)}&limit=5`)
    ).json<{ events: AuditEvent[] }>();
    expect(rest.events.map((e) => e.id)).toEqual([secondMark.id]);
    expect((await read('?limit=201')).statusCode).toBe(400);
    const noToken = await app.inject({ method: 'GET', url: `/internal/exams/${exam.id}/audit-events` });
    expect(noToken.statusCode).toBe(401);
  });
});
