import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, type TestApp } from '../../testing/app.ts';
import { whileRunning } from '../../testing/event-loop.ts';
import { minimalPdf, multipartBody, pdfBomb } from '../../testing/files.ts';

const MB = 1024 * 1024;
/**
 * A cheap request must answer within this while a hostile file is read. The extraction it runs beside takes
 * seconds; a /health answer needs well under 10 ms of CPU, so even with the worker thread and a loaded 2-core
 * machine competing for the cores (the OS shares them out every few ms) two seconds is a wide margin, while
 * a blocked event loop holds the answer for the whole extraction.
 */
// Measured here: 577 ms once under a load of ~20 before a warm-up, blocked loops 8.7–29.8 s on the old code; 2 s keeps
// a wide margin on a busy CI box while still telling a free loop from a blocked one.
const PING_BOUND_MS = 2000;

async function upload(app: TestApp, headers: Record<string, string>, name: string, content: Buffer) {
  const form = multipartBody([{ name, content }]);
  return app.inject({
    method: 'POST',
    url: '/api/materials',
    headers: { ...headers, ...form.headers },
    payload: form.payload,
  });
}
const listOf = async (app: TestApp, headers: Record<string, string>) =>
  (await app.inject({ method: 'GET', url: '/api/materials', headers })).json().materials;

describe('course-material PDFs that unpack past MATERIAL_MAX_DECOMPRESSED_BYTES', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({
      env: { MATERIAL_MAX_BYTES: String(MB), MATERIAL_MAX_DECOMPRESSED_BYTES: String(10 * MB) },
    });
  });
  afterAll(() => app.close());

  it('refuses with 413 a PDF whose FlateDecode stream inflates to 60 MB, storing nothing', async () => {
    const creator = await createCreator(app);
    const bomb = pdfBomb(60 * MB);
    expect(bomb.length).toBeLessThan(100_000);
    const response = await upload(app, creator.headers, 'bomb.pdf', bomb);
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: `"bomb.pdf" unpacks to more than ${10 * MB} bytes (MATERIAL_MAX_DECOMPRESSED_BYTES)`,
      issues: [{ path: 'files' }],
    });
    expect(await listOf(app, creator.headers)).toEqual([]);
  });

  it('still reads a PDF whose streams stay under the limit', async () => {
    const creator = await createCreator(app);
    const response = await upload(app, creator.headers, 'ok.pdf', minimalPdf('Ribosomes build proteins.'));
    expect(response.statusCode).toBe(201);
    expect(response.json().materials[0].textLength).toBe('Ribosomes build proteins.'.length);
  });
});

describe('reading a course material off the event loop, under PARSE_TIMEOUT_SECONDS', () => {
  let app: TestApp;
  beforeAll(async () => {
    // The decompression cap is lifted so that only the worker's time limit stands between pdf.js and the bomb.
    app = await buildTestApp({
      env: {
        MATERIAL_MAX_BYTES: String(MB),
        MATERIAL_MAX_DECOMPRESSED_BYTES: String(1024 * MB),
        // Reading the 150 MB bomb took about 3 s on a quiet 2-core box (longer when loaded): a 1 s limit leaves it
        // a wide margin to be stopped on a faster machine too.
        PARSE_TIMEOUT_SECONDS: '1',
      },
    });
    // One ordinary upload first, so the measurement below is of reading the bomb, not of the first request's
    // one-off costs (compiling the multipart and upload paths, starting the worker and loading pdf.js).
    const warmUp = await upload(app, (await createCreator(app)).headers, 'warm.pdf', minimalPdf('Warm.'));
    expect(warmUp.statusCode).toBe(201);
  });
  afterAll(() => app.close());

  it('stops a PDF that takes longer than the limit with 400, while /health keeps answering fast', async () => {
    const creator = await createCreator(app);
    const bomb = pdfBomb(150 * MB);
    const run = await whileRunning(
      () => upload(app, creator.headers, 'slow.pdf', bomb),
      () => app.inject({ method: 'GET', url: '/health' }),
    );
    // The event loop first: on a parser that runs in the request, these fail before the answer is even looked at.
    expect(run.maxStallMs).toBeLessThan(PING_BOUND_MS);
    expect(run.latencies.length).toBeGreaterThan(10);
    expect(Math.max(...run.latencies)).toBeLessThan(PING_BOUND_MS);
    expect(run.result.statusCode).toBe(400);
    expect(run.result.json().error).toMatchObject({
      code: 'VALIDATION',
      message: '"slow.pdf" took too long to read (more than 1 s, PARSE_TIMEOUT_SECONDS)',
      issues: [{ path: 'files' }],
    });
    expect(run.elapsedMs).toBeGreaterThanOrEqual(1000);
    expect(await listOf(app, creator.headers)).toEqual([]);
  });
});
