import { RESULTS_PAGE_DEFAULT, RESULTS_PAGE_MAX, type ResultList } from '@exam/domain/result';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, insertResults, type TestApp } from '../../testing/app.ts';

describe('GET /api/results paging', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const at = (minute: number) => new Date(Date.UTC(2032, 0, 1, 9, minute));
  const newOwner = () => `owner-${randomUUID()}`;

  async function list(ownerId: string, query = '') {
    const response = await app.inject({
      method: 'GET',
      url: `/api/results${query}`,
      headers: creatorHeaders(app, ownerId),
    });
    return {
      status: response.statusCode,
      body: response.json() as ResultList & { error?: { issues?: Array<{ path: string }> } },
    };
  }

  /** Follows nextCursor from the first page to the last; returns the ids in order and the page sizes. */
  async function pageThrough(ownerId: string, params: Record<string, string>) {
    const ids: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ ...params, ...(cursor ? { cursor } : {}) });
      const { status, body } = await list(ownerId, `?${query}`);
      expect(status).toBe(200);
      ids.push(...body.results.map((r) => r.id));
      sizes.push(body.results.length);
      cursor = body.nextCursor;
    } while (cursor);
    return { ids, sizes };
  }

  /** The list's order: newest submission first, ties by id, both descending. */
  const expectedOrder = (rows: Array<{ id: string; completedAt: Date }>) =>
    [...rows]
      .sort((a, b) => b.completedAt.getTime() - a.completedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .map((r) => r.id);

  it('lists newest submission first and breaks ties by id', async () => {
    const owner = newOwner();
    const times = [at(1), at(3), at(2), at(3), at(3), at(1)];
    const ids = await insertResults(
      app,
      times.map((completedAt) => ({ ownerId: owner, completedAt })),
    );
    const { body } = await list(owner);
    expect(body.results.map((r) => r.id)).toEqual(expectedOrder(ids.map((id, i) => ({ id, completedAt: times[i]! }))));
    expect(body.nextCursor).toBeNull();
  });

  it('pages through ties without skipping or repeating a result', async () => {
    const owner = newOwner();
    // Eleven results over three instants: every page boundary falls inside a run of equal times.
    const times = [...Array(5).fill(at(10)), ...Array(4).fill(at(9)), ...Array(2).fill(at(8))] as Date[];
    const ids = await insertResults(
      app,
      times.map((completedAt) => ({ ownerId: owner, completedAt })),
    );
    const expected = expectedOrder(ids.map((id, i) => ({ id, completedAt: times[i]! })));
    for (const limit of [1, 2, 3, 4]) {
      const { ids: paged, sizes } = await pageThrough(owner, { limit: String(limit) });
      expect(paged, `limit ${limit}`).toEqual(expected);
      expect(sizes.slice(0, -1).every((size) => size === limit)).toBe(true);
    }
  });

  it('keeps a page stable when a newer result arrives between two pages', async () => {
    const owner = newOwner();
    const ids = await insertResults(
      app,
      [at(1), at(2), at(3), at(4)].map((completedAt) => ({ ownerId: owner, completedAt })),
    );
    const first = await list(owner, '?limit=2');
    await insertResults(app, [{ ownerId: owner, completedAt: at(30) }]);
    const second = await list(owner, `?limit=2&cursor=${first.body.nextCursor}`);
    expect([...first.body.results, ...second.body.results].map((r) => r.id)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    expect(second.body.nextCursor).toBeNull();
  });

  it(`answers ${RESULTS_PAGE_DEFAULT} by default and up to ${RESULTS_PAGE_MAX} when asked`, async () => {
    const owner = newOwner();
    await insertResults(
      app,
      Array.from({ length: RESULTS_PAGE_MAX + 5 }, (_v, i) => ({
        ownerId: owner,
        completedAt: new Date(at(0).getTime() + i * 1000),
      })),
    );
    const byDefault = await list(owner);
    expect(byDefault.body.results).toHaveLength(RESULTS_PAGE_DEFAULT);
    expect(byDefault.body.nextCursor).not.toBeNull();
    const max = await list(owner, `?limit=${RESULTS_PAGE_MAX}`);
    expect(max.body.results).toHaveLength(RESULTS_PAGE_MAX);
    const rest = await list(owner, `?limit=${RESULTS_PAGE_MAX}&cursor=${max.body.nextCursor}`);
    expect(rest.body.results).toHaveLength(5);
    expect(rest.body.nextCursor).toBeNull();
  });

  it('answers 400 naming limit when it is out of bounds or not a whole number', async () => {
    const owner = newOwner();
    for (const limit of ['0', String(RESULTS_PAGE_MAX + 1), '-3', '2.5', 'ten', '']) {
      const { status, body } = await list(owner, `?limit=${limit}`);
      expect(status, `limit=${limit}`).toBe(400);
      expect(body.error?.issues?.map((i) => i.path)).toContain('limit');
    }
  });

  it('answers 400 naming cursor when it is not one the list handed out', async () => {
    const owner = newOwner();
    const forged = [
      Buffer.from('["not a date","x"]').toString('base64url'),
      Buffer.from('{"id":1}').toString('base64url'),
      '%%%',
      'x'.repeat(501),
    ];
    for (const cursor of forged) {
      const { status, body } = await list(owner, `?cursor=${encodeURIComponent(cursor)}`);
      expect(status, cursor).toBe(400);
      expect(body.error?.issues?.map((i) => i.path)).toContain('cursor');
    }
  });

  it("never shows another creator's results, on any page or with their cursor", async () => {
    const mine = newOwner();
    const theirs = newOwner();
    const myIds = await insertResults(
      app,
      [1, 2, 3, 4, 5].map((m) => ({ ownerId: mine, completedAt: at(m) })),
    );
    const theirIds = await insertResults(
      app,
      [1, 2, 3, 4, 5].map((m) => ({ ownerId: theirs, completedAt: at(m), examId: 'shared-exam-id' })),
    );
    const { ids } = await pageThrough(mine, { limit: '2' });
    expect(new Set(ids)).toEqual(new Set(myIds));
    // Their cursor (or their exam's id) gives me nothing of theirs.
    const theirFirst = await list(theirs, '?limit=2');
    const withTheirCursor = await list(mine, `?limit=10&cursor=${theirFirst.body.nextCursor}`);
    expect(withTheirCursor.body.results.every((r) => myIds.includes(r.id))).toBe(true);
    expect((await list(mine, '?examId=shared-exam-id')).body.results).toEqual([]);
    expect(theirIds.some((id) => ids.includes(id))).toBe(false);
  });

  it('exports every result of an exam in the CSV, however many pages the list would take', async () => {
    const owner = newOwner();
    const count = RESULTS_PAGE_MAX + 3;
    await insertResults(
      app,
      Array.from({ length: count }, (_v, i) => ({
        ownerId: owner,
        examId: 'exam-csv',
        completedAt: new Date(at(0).getTime() + i * 1000),
      })),
    );
    const csv = await app.inject({
      method: 'GET',
      url: '/api/exams/exam-csv/results.csv',
      headers: creatorHeaders(app, owner),
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trimEnd().split('\r\n')).toHaveLength(count + 1);
  });

  it('filters by exam, candidate ID, grading state and search text, paging within the filter', async () => {
    const owner = newOwner();
    const [a1, a2, , b1, a3] = await insertResults(app, [
      {
        ownerId: owner,
        completedAt: at(1),
        examId: 'exam-a',
        examTitle: 'Algebra',
        userName: 'Ada',
        studentId: 'S-1',
        status: 'graded',
      },
      {
        ownerId: owner,
        completedAt: at(2),
        examId: 'exam-a',
        examTitle: 'Algebra',
        userName: 'Grace',
        studentId: 'S-2',
      },
      {
        ownerId: owner,
        completedAt: at(3),
        examId: 'exam-b',
        examTitle: 'Biology 100%',
        userName: 'Linus',
        studentId: 'S-3',
        status: 'graded',
      },
      {
        ownerId: owner,
        completedAt: at(4),
        examId: 'exam-b',
        examTitle: 'Biology',
        userName: 'Ada_B',
        studentId: 'S-4',
      },
      {
        ownerId: owner,
        completedAt: at(5),
        examId: 'exam-a',
        examTitle: 'Algebra',
        userName: 'Alan',
        studentId: 'S-5',
      },
    ]);
    expect((await pageThrough(owner, { examId: 'exam-a', limit: '1' })).ids).toEqual([a3, a2, a1]);
    expect((await list(owner, '?examId=exam-a&studentId=S-2')).body.results.map((r) => r.id)).toEqual([a2]);
    expect((await list(owner, '?examId=exam-a&graded=false')).body.results.map((r) => r.id)).toEqual([a3, a2]);
    expect((await list(owner, '?graded=true')).body.results.map((r) => r.examTitle)).toEqual([
      'Biology 100%',
      'Algebra',
    ]);
    expect((await list(owner, '?search=%20ada%20')).body.results.map((r) => r.id)).toEqual([b1, a1]);
    expect((await list(owner, '?search=s-5')).body.results.map((r) => r.id)).toEqual([a3]);
    // LIKE's wildcards are plain text here.
    expect((await list(owner, `?search=${encodeURIComponent('100%')}`)).body.results.map((r) => r.userName)).toEqual([
      'Linus',
    ]);
    expect((await list(owner, '?search=a_b')).body.results.map((r) => r.id)).toEqual([b1]);
    expect((await list(owner, '?graded=maybe')).status).toBe(400);
  });
});
