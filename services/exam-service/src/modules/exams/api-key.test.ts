import { decryptSecret } from '@exam/server-kit/crypto';
import { openTestDatabase } from '@exam/server-kit/testing';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, MIGRATIONS_SCHEMA } from '../../db/database.ts';
import * as schema from '../../db/schema.ts';
import { buildTestApp, createCreator, examBody, TEST_ENCRYPTION_KEY, type TestApp } from '../../testing/app.ts';
import { minimalPdf, multipartBody } from '../../testing/files.ts';

const CANARY = 'sk-CANARY-1234567890abcdef';
/** What may never leave the service: every key this suite sets contains it. */
const SECRET_PART = 'CANARY-1234567890';
const INTERNAL = { 'x-internal-token': 'test-internal-token-that-is-long-enough-0123456789' };

describe('the provider API key is write-only', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCreator>>;
  const bodies: string[] = [];
  /** Every response of this suite goes through here, so the final test can scan all of them. */
  async function call(options: InjectOptions) {
    const response = await app.inject(options);
    bodies.push(response.body);
    return response;
  }
  beforeAll(async () => {
    app = await buildTestApp();
    owner = await createCreator(app);
  });
  afterAll(() => app.close());

  it('stores a key encrypted and shows only that one is set and its last four characters', async () => {
    const created = await call({
      method: 'POST',
      url: '/api/exams',
      headers: owner.headers,
      payload: examBody({ isDraft: false, aiSettings: { enabled: true, apiKey: CANARY } }),
    });
    expect(created.statusCode).toBe(201);
    const { exam } = created.json();
    expect(exam.aiSettings).toMatchObject({ hasApiKey: true, apiKeyLast4: 'cdef' });
    expect(exam.aiSettings).not.toHaveProperty('apiKey');

    const url = `/api/exams/${exam.id}`;
    await call({ method: 'GET', url, headers: owner.headers });
    await call({ method: 'GET', url: '/api/exams/auth_exams', headers: owner.headers });
    await call({ method: 'GET', url: '/api/exams', headers: owner.headers });
    const live = await call({ method: 'PUT', url, headers: owner.headers, payload: { isLive: true } });
    expect(live.json().aiSettings.hasApiKey).toBe(true);
    await call({ method: 'GET', url: `/api/public/exams/${exam.id}` });
    await call({ method: 'GET', url: `/api/public/exams/${exam.id}`, headers: owner.headers });

    const internal = await call({ method: 'GET', url: `/internal/exams/${exam.id}`, headers: INTERNAL });
    const encrypted = internal.json().aiSettings.encryptedApiKey;
    expect(decryptSecret(encrypted, Buffer.from(TEST_ENCRYPTION_KEY, 'base64url'))).toBe(CANARY);
  });

  it('keeps the key when aiSettings omit it and clears it on null', async () => {
    const { exam } = (
      await call({
        method: 'POST',
        url: '/api/exams',
        headers: owner.headers,
        payload: examBody({ aiSettings: { apiKey: CANARY } }),
      })
    ).json();
    const url = `/api/exams/${exam.id}`;
    const kept = await call({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { aiSettings: { enabled: true, model: 'gpt-4o' } },
    });
    expect(kept.json().aiSettings).toMatchObject({ hasApiKey: true, apiKeyLast4: 'cdef', model: 'gpt-4o' });
    const blank = await call({ method: 'PUT', url, headers: owner.headers, payload: { aiSettings: { apiKey: '' } } });
    expect(blank.json().aiSettings.hasApiKey).toBe(true);
    const replaced = await call({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { aiSettings: { apiKey: `${CANARY}-v2WXYZ` } },
    });
    expect(replaced.json().aiSettings.apiKeyLast4).toBe('WXYZ');
    const cleared = await call({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { aiSettings: { apiKey: null } },
    });
    expect(cleared.json().aiSettings).toMatchObject({ hasApiKey: false, apiKeyLast4: null });
  });

  it('does not echo the key in error responses', async () => {
    const { exam } = (
      await call({
        method: 'POST',
        url: '/api/exams',
        headers: owner.headers,
        payload: examBody({ aiSettings: { apiKey: CANARY } }),
      })
    ).json();
    const url = `/api/exams/${exam.id}`;
    const errors = [
      await call({
        method: 'PUT',
        url,
        headers: owner.headers,
        payload: { timerMinutes: 0, aiSettings: { apiKey: CANARY } },
      }),
      await call({
        method: 'PUT',
        url,
        headers: owner.headers,
        payload: { aiSettings: { apiKey: CANARY.repeat(30) } },
      }),
      await call({
        method: 'PUT',
        url,
        headers: owner.headers,
        payload: { aiSettings: { apiKey: 12345, provider: CANARY } },
      }),
      await call({
        method: 'POST',
        url: '/api/exams',
        headers: owner.headers,
        payload: examBody({ title: 7, aiSettings: { apiKey: CANARY } }),
      }),
      await call({
        method: 'PUT',
        url,
        headers: owner.headers,
        payload: { aiSettings: { apiKey: CANARY, courseMaterialIds: ['missing'] } },
      }),
      await call({
        method: 'PUT',
        url: '/api/exams/unknown-id',
        headers: owner.headers,
        payload: { aiSettings: { apiKey: CANARY } },
      }),
      await call({ method: 'PUT', url, payload: { aiSettings: { apiKey: CANARY } } }),
    ];
    expect(errors.map((r) => r.statusCode)).toEqual([400, 400, 400, 400, 400, 404, 401]);
    const form = multipartBody([{ name: 'notes.pdf', content: minimalPdf('Notes') }]);
    const upload = await call({
      method: 'POST',
      url: '/api/materials',
      headers: { ...owner.headers, ...form.headers },
      payload: form.payload,
    });
    expect(upload.statusCode).toBe(201);
  });

  it('never stores the key in clear text', async () => {
    const { db } = await openTestDatabase({
      schema,
      migrationsFolder: MIGRATIONS_FOLDER,
      migrationsSchema: MIGRATIONS_SCHEMA,
    });
    const countRows = async (pattern: string) => {
      const result = await db.execute(
        sql`select count(*)::int as n from exam_service.exams where row_to_json(exams)::text like ${pattern}`,
      );
      const rows = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
      return (rows[0] as { n: number }).n;
    };
    expect(await countRows(`%${SECRET_PART}%`)).toBe(0);
    // The same scan does find what is stored in clear: the last four characters.
    expect(await countRows('%"api_key_last4":"cdef"%')).toBeGreaterThan(0);
  });

  it('no response body of any route in this suite contains the key', () => {
    expect(bodies.length).toBeGreaterThan(15);
    for (const body of bodies) expect(body).not.toContain(SECRET_PART);
  });
});
