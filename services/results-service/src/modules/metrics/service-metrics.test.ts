import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { testGradings } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/app.ts';

function pending(text: string, state: string): number {
  const line = text
    .split('\n')
    .find((l) => l.startsWith('results_service_test_gradings_pending{') && l.includes(`state="${state}"`));
  return Number(line?.slice(line.lastIndexOf(' ') + 1));
}

describe('results-service metrics', () => {
  let app: TestApp;
  afterEach(() => app.close());

  it('reports the test-grading outbox by state, leaving out finished rows', async () => {
    app = await buildTestApp({ env: { METRICS_CACHE_MS: '0' } });
    const scrape = async () => (await app.inject({ method: 'GET', url: '/metrics' })).body;
    const before = await scrape();
    const now = new Date();
    const row = (state: 'queued' | 'running' | 'done', questionIndex: number) => ({
      resultId: randomUUID(),
      attemptId: randomUUID(),
      questionIndex,
      code: 'print(1)',
      state,
      // Far in the future, so a grading pass of another test never picks these rows up.
      nextAt: new Date(now.getTime() + 24 * 3600_000),
      createdAt: now,
      updatedAt: now,
    });
    const rows = [row('queued', 0), row('queued', 1), row('running', 0), row('done', 0)];
    await app.db.insert(testGradings).values(rows);
    const after = await scrape();
    await app.db.delete(testGradings).where(
      inArray(
        testGradings.resultId,
        rows.map((r) => r.resultId),
      ),
    );
    expect(pending(after, 'queued')).toBe(pending(before, 'queued') + 2);
    expect(pending(after, 'running')).toBe(pending(before, 'running') + 1);
  });
});
