import type { AuditEvent } from '@exam/domain/roles';
import { orderedAuditId } from '@exam/server-kit/audit-events';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpResultsAudit } from '../../adapters/results-audit.ts';
import { auditEvents } from '../../db/schema.ts';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';
import { shareExam } from '../../testing/sharing.ts';

/** results-service stands behind msw: the adapter's real HTTP request is what the fake answers. */
const RESULTS = 'http://results-service.test';
const upstream = setupServer();

type Creator = Awaited<ReturnType<typeof createCreator>>;

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString();

function resultsEvent(examId: string, minute: number, action: AuditEvent['action']): AuditEvent {
  return {
    id: `r-${minute}`,
    examId,
    actorId: 'grader-1',
    actorEmail: 'grader@example.test',
    action,
    subject: 'S-1',
    detail: { points: minute },
    at: at(minute),
  };
}

describe("an exam's audit log merges exam-service's and results-service's halves", () => {
  let app: TestApp;
  let owner: Creator;
  let seen: URL[];

  beforeAll(async () => {
    upstream.listen({ onUnhandledRequest: 'bypass' });
    app = await buildTestApp({
      deps: { resultsAudit: createHttpResultsAudit(RESULTS, TEST_SECRETS.INTERNAL_TOKEN, { timeoutMs: 2000 }) },
    });
    owner = await createCreator(app);
  });
  afterEach(() => upstream.resetHandlers());
  afterAll(async () => {
    upstream.close();
    await app.close();
  });

  /** An exam whose own half holds events at minutes 0, 2 and 4 (besides its creation, now). */
  async function examWithOwnEvents() {
    const examId = (await createExam(app, owner.headers)).id;
    await app.examDatabase.db.insert(auditEvents).values(
      [0, 2, 4].map((minute) => ({
        id: `e-${examId}-${minute}`,
        examId,
        actorId: owner.user.id,
        actorEmail: owner.email,
        action: 'exam.edited' as const,
        detail: { fields: ['title'] },
        at: new Date(at(minute)),
      })),
    );
    return examId;
  }

  /** results-service's half: minutes 1, 3 and 5, answered newest first, honouring before and limit. */
  function serveResults(examId: string) {
    seen = [];
    const all = [5, 3, 1].map((m) => resultsEvent(examId, m, m === 5 ? 'result.released' : 'result.graded'));
    upstream.use(
      http.get(`${RESULTS}/internal/exams/:id/audit-events`, ({ request, params }) => {
        const url = new URL(request.url);
        seen.push(url);
        if (request.headers.get('x-internal-token') !== TEST_SECRETS.INTERNAL_TOKEN || params.id !== examId)
          return HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'no' } }, { status: 404 });
        const before = url.searchParams.get('before');
        const limit = Number(url.searchParams.get('limit'));
        const events = all.filter((e) => !before || e.at < before).slice(0, limit);
        return HttpResponse.json({ events });
      }),
    );
  }

  const read = (examId: string, query = '', headers = owner.headers) =>
    app.inject({ method: 'GET', url: `/api/exams/${examId}/audit${query}`, headers });

  it('answers both halves in one list, newest first, and says nothing is missing', async () => {
    const examId = await examWithOwnEvents();
    serveResults(examId);
    const response = await read(examId);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.incomplete).toEqual([]);
    expect(body.events.map((e: AuditEvent) => e.action)).toEqual([
      'exam.created',
      'result.released',
      'exam.edited',
      'result.graded',
      'exam.edited',
      'result.graded',
      'exam.edited',
    ]);
    expect(body.events.slice(1).map((e: AuditEvent) => e.at)).toEqual([5, 4, 3, 2, 1, 0].map(at));
    expect(body.nextBefore).toBeNull();
  });

  it('pages by the before cursor across both halves without losing or repeating an event', async () => {
    const examId = await examWithOwnEvents();
    serveResults(examId);
    const pages: AuditEvent[][] = [];
    let before: string | null = at(6);
    while (before) {
      const body: { events: AuditEvent[]; nextBefore: string | null } = (
        await read(examId, `?limit=2&before=${encodeURIComponent(before)}`)
      ).json();
      pages.push(body.events);
      before = body.nextBefore;
    }
    expect(pages.flat().map((e) => e.at)).toEqual([5, 4, 3, 2, 1, 0].map(at));
    expect(pages[0]!.map((e) => e.id)).toEqual(['r-5', `e-${examId}-4`]);
    // The cursor and the page size went upstream as the contract names them.
    expect(seen[1]!.searchParams.get('before')).toBe(at(4));
    expect(seen[1]!.searchParams.get('limit')).toBe('2');
  });

  it('pages through events sharing one millisecond at a page boundary without skipping or repeating any', async () => {
    const examId = (await createExam(app, owner.headers)).id;
    const instant = new Date(at(30));
    // One action's events share their millisecond (edited then published; a mark on each question), in both halves.
    await app.examDatabase.db.insert(auditEvents).values(
      [1, 2, 3].map((n) => ({
        id: orderedAuditId(instant),
        examId,
        actorId: owner.user.id,
        actorEmail: owner.email,
        action: 'exam.edited' as const,
        detail: { n },
        at: instant,
      })),
    );
    const remote = [3, 2, 1].map((n) => ({
      ...resultsEvent(examId, 30, 'result.graded'),
      id: `${orderedAuditId(instant)}-r${n}`,
      detail: { n },
    }));
    remote.sort((a, b) => b.id.localeCompare(a.id));
    upstream.use(
      http.get(`${RESULTS}/internal/exams/:id/audit-events`, ({ request }) => {
        const url = new URL(request.url);
        const before = url.searchParams.get('before');
        const beforeId = url.searchParams.get('beforeId');
        const older = (e: AuditEvent) =>
          !before || e.at < before || (beforeId !== null && e.at === before && e.id < beforeId);
        return HttpResponse.json({ events: remote.filter(older).slice(0, Number(url.searchParams.get('limit'))) });
      }),
    );
    const ids: string[] = [];
    let query = '?limit=2';
    for (let page = 0; page < 10; page++) {
      const body: { events: AuditEvent[]; nextBefore: string | null; nextBeforeId?: string | null } = (
        await read(examId, query)
      ).json();
      ids.push(...body.events.map((e) => e.id));
      if (!body.nextBefore) break;
      query = `?limit=2&before=${encodeURIComponent(body.nextBefore)}${body.nextBeforeId ? `&beforeId=${encodeURIComponent(body.nextBeforeId)}` : ''}`;
    }
    const sameInstant = ids.slice(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(sameInstant).toHaveLength(6);
    // Newest first: later recorded first, whichever half holds the event.
    expect(sameInstant).toEqual([...sameInstant].sort().reverse());
  });

  it("answers exam-service's half and names results-service as missing when it cannot be read", async () => {
    const examId = await examWithOwnEvents();
    upstream.use(http.get(`${RESULTS}/internal/exams/:id/audit-events`, () => HttpResponse.error()));
    const down = (await read(examId)).json();
    expect(down.incomplete).toEqual(['results-service']);
    expect(down.events).toHaveLength(4);

    upstream.use(
      http.get(`${RESULTS}/internal/exams/:id/audit-events`, () => HttpResponse.json({ events: [{ id: 1 }] })),
    );
    const offContract = (await read(examId)).json();
    expect(offContract.incomplete).toEqual(['results-service']);
    expect(offContract.events).toHaveLength(4);
  });

  it('is the owner’s only: an editor gets 403, a stranger 404, and neither reaches results-service', async () => {
    const examId = await examWithOwnEvents();
    serveResults(examId);
    const editor = await createCreator(app);
    await shareExam(app, owner.headers, examId, { email: editor.email, role: 'editor' });
    const refused = await read(examId, '', editor.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe("Only the owner can read this exam's audit log.");
    expect((await read(examId, '', (await createCreator(app)).headers)).statusCode).toBe(404);
    expect(seen).toEqual([]);
  });

  it('refuses a page larger than 200 or a cursor that is not a time with 400', async () => {
    const examId = await examWithOwnEvents();
    expect((await read(examId, '?limit=201')).statusCode).toBe(400);
    expect((await read(examId, '?before=yesterday')).statusCode).toBe(400);
  });
});
