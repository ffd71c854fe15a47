import {
  fullOverlapBomb,
  honestBomb,
  manyEntries,
  quotedOverlapBomb,
  understatedBomb,
} from '@exam/interchange/zip-bombs.testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, type TestApp } from '../../testing/app.ts';
import { whileRunning } from '../../testing/event-loop.ts';

const MB = 1024 * 1024;
/** As in material-bombs.test.ts: /health needs milliseconds of CPU; a blocked loop holds it for seconds. */
// Measured here: 577 ms once under a load of ~20 before a warm-up, blocked loops 8.7–29.8 s on the old code; 2 s keeps
// a wide margin on a busy CI box while still telling a free loop from a blocked one.
const PING_BOUND_MS = 2000;
const qti = (data: Uint8Array) => ({ format: 'qti', fileName: 'bomb.zip', data: Buffer.from(data).toString('base64') });

describe('QTI zip bombs on import', () => {
  let app: TestApp;
  let creator: Awaited<ReturnType<typeof createCreator>>;
  beforeAll(async () => {
    app = await buildTestApp();
    creator = await createCreator(app);
  });
  afterAll(() => app.close());

  const listExams = async () =>
    (await app.inject({ method: 'GET', url: '/api/exams', headers: creator.headers })).json().exams as unknown[];
  const importZip = (data: Uint8Array) =>
    app.inject({ method: 'POST', url: '/api/exams/import', headers: creator.headers, payload: qti(data) });

  it.each([
    [
      'overlapping entries (one kernel, 100 names)',
      () => fullOverlapBomb(100, 2 * MB),
      /share their data \(overlapping entries, a zip bomb\)$/,
    ],
    ['an entry quoting another', () => quotedOverlapBomb(MB), /outer\.xml and inner\.xml share their data/],
    [
      'more entries than IMPORT_MAX_ZIP_ENTRIES',
      () => manyEntries(1001),
      /The zip holds 1001 entries; at most 1000 are accepted$/,
    ],
    [
      'an entry that inflates past the size it declares',
      () => understatedBomb(8 * MB, 100),
      /item\.xml unpacks to more than the 100 bytes it declares$/,
    ],
  ])('refuses %s with 400 and the reason, storing nothing', async (_name, build, reason) => {
    const before = await listExams();
    const response = await importZip(build());
    expect(response.statusCode).toBe(400);
    const issue = response.json().error.issues[0];
    expect(issue.path).toBe('data');
    expect(issue.message).toMatch(/^This is not a readable qti file: /);
    expect(issue.message).toMatch(reason);
    expect(await listExams()).toEqual(before);
  });

  it('refuses 200 MB of declared entries from a small upload with 400, while /health keeps answering fast', async () => {
    const before = await listExams();
    const bomb = honestBomb(4, 50 * MB);
    expect(bomb.length).toBeLessThan(250_000);
    const run = await whileRunning(
      () => importZip(bomb),
      () => app.inject({ method: 'GET', url: '/health' }),
    );
    // The event loop first: on a parser that runs in the request, these fail before the answer is even looked at.
    expect(run.maxStallMs).toBeLessThan(PING_BOUND_MS);
    expect(run.latencies.length).toBeGreaterThan(0);
    expect(Math.max(...run.latencies)).toBeLessThan(PING_BOUND_MS);
    expect(run.result.statusCode).toBe(400);
    expect(run.result.json().error.issues[0]).toEqual({
      path: 'data',
      message:
        'This is not a readable qti file: The zip unpacks to 200 MB; at most 50 MB are accepted (IMPORT_MAX_UNZIPPED_BYTES)',
    });
    expect(await listExams()).toEqual(before);
  });
});

describe('question-import limits from the configuration', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({
      env: { IMPORT_MAX_UNZIPPED_BYTES: String(MB), IMPORT_MAX_ZIP_ENTRIES: '3', PARSE_TIMEOUT_SECONDS: '60' },
    });
  });
  afterAll(() => app.close());

  it('applies IMPORT_MAX_UNZIPPED_BYTES and IMPORT_MAX_ZIP_ENTRIES', async () => {
    const creator = await createCreator(app);
    const preview = (data: Uint8Array) =>
      app.inject({ method: 'POST', url: '/api/exams/import/preview', headers: creator.headers, payload: qti(data) });
    const tooBig = await preview(honestBomb(2, 600 * 1024));
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().error.issues[0].message).toBe(
      'This is not a readable qti file: The zip unpacks to 1.2 MB; at most 1 MB are accepted (IMPORT_MAX_UNZIPPED_BYTES)',
    );
    const tooMany = await preview(manyEntries(4));
    expect(tooMany.json().error.issues[0].message).toBe(
      'This is not a readable qti file: The zip holds 4 entries; at most 3 are accepted',
    );
  });
});
