import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { ltiScoreSyncs, testGradings } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/app.ts';

function gauge(text: string, name: string, state: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(`state="${state}"`));
  return Number(line?.slice(line.lastIndexOf(' ') + 1));
}
const pending = (text: string, state: string) => gauge(text, 'results_service_test_gradings_pending', state);

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

  it('reports the LTI score outbox: scores waiting to be sent and scores given up', async () => {
    app = await buildTestApp({ env: { METRICS_CACHE_MS: '0' } });
    const scrape = async () => (await app.inject({ method: 'GET', url: '/metrics' })).body;
    const syncs = (text: string, state: string) => gauge(text, 'results_service_lti_score_syncs', state);
    const before = await scrape();
    const now = new Date();
    // Far in the future, so a passback pass of another test never picks these rows up.
    const later = new Date(now.getTime() + 24 * 3600_000);
    const row = (state: 'pending' | 'sent' | 'failed') => ({
      resultId: randomUUID(),
      attemptId: randomUUID(),
      examId: 'exam-metrics',
      state,
      nextTryAt: later,
      scoreGiven: 1,
      scoreMaximum: 2,
      scoredAt: now,
      updatedAt: now,
    });
    const rows = [row('pending'), row('pending'), row('failed'), row('sent')];
    await app.db.insert(ltiScoreSyncs).values(rows);
    const after = await scrape();
    await app.db.delete(ltiScoreSyncs).where(
      inArray(
        ltiScoreSyncs.resultId,
        rows.map((r) => r.resultId),
      ),
    );
    expect(syncs(after, 'pending')).toBe(syncs(before, 'pending') + 2);
    expect(syncs(after, 'failed')).toBe(syncs(before, 'failed') + 1);
  });
});
