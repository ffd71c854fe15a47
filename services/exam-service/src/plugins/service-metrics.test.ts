import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { mailQueue } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/app.ts';

const METRICS_TOKEN = 'exam-metrics-token-0123456789';

function gauge(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  return Number(line?.slice(line.lastIndexOf(' ') + 1));
}

describe('exam-service metrics', () => {
  let app: TestApp;
  afterEach(() => app.close());

  const scrape = async () =>
    (await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;

  it('reports the pending mails of the queue, not the sent or failed ones', async () => {
    app = await buildTestApp({ env: { METRICS_CACHE_MS: '0', METRICS_TOKEN } });
    const before = gauge(await scrape(), 'exam_service_mail_queue_pending');
    expect(before).toBeGreaterThanOrEqual(0);
    const now = new Date();
    const mail = (status: 'pending' | 'sent' | 'failed') => ({
      id: randomUUID(),
      to: 'someone@example.test',
      subject: 'Metrics',
      text: 'body',
      kind: 'invitation' as const,
      status,
      nextAttemptAt: new Date(now.getTime() + 3600_000),
      createdAt: now,
    });
    const mails = [mail('pending'), mail('pending'), mail('sent'), mail('failed')];
    await app.examDatabase.db.insert(mailQueue).values(mails);
    const after = gauge(await scrape(), 'exam_service_mail_queue_pending');
    await app.examDatabase.db.delete(mailQueue).where(
      inArray(
        mailQueue.id,
        mails.map((m) => m.id),
      ),
    );
    expect(after).toBe(before + 2);
  });

  it('refuses a scrape without the METRICS_TOKEN bearer token', async () => {
    app = await buildTestApp({ env: { METRICS_TOKEN } });
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('UNAUTHENTICATED');
  });
});
