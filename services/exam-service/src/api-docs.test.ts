import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, type TestApp } from './testing/app.ts';

const DOCS = '/api/exam-service/docs';
const pathsOf = (document: unknown) => Object.keys((document as { paths: Record<string, unknown> }).paths);

describe('the OpenAPI document (API_DOCS)', () => {
  const apps: TestApp[] = [];
  const build = async (env: Record<string, string> = {}) => {
    const app = await buildTestApp({ env });
    apps.push(app);
    return app;
  };
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  let publicApp: TestApp;
  beforeAll(async () => {
    publicApp = await build();
  });

  it('serves the document to anyone by default, without one internal route in it', async () => {
    const response = await publicApp.inject({ url: `${DOCS}/json` });
    expect(response.statusCode).toBe(200);
    const paths = pathsOf(response.json());
    expect(paths).toContain('/api/auth/login');
    expect(paths.filter((path) => path.startsWith('/internal/'))).toEqual([]);
    expect(response.body).not.toContain('creator-sessions');
    // The routes themselves still answer the other services.
    expect(publicApp.hasRoute({ method: 'GET', url: '/internal/creator-sessions/:sid' })).toBe(true);
    // The committed document (scripts/check-generated.ts) is built the same way.
    expect(pathsOf(publicApp.swagger()).filter((path) => path.startsWith('/internal/'))).toEqual([]);
  });

  it('with API_DOCS=signed-in, serves the document and its UI only to a signed-in creator', async () => {
    const app = await build({ API_DOCS: 'signed-in' });
    for (const url of [DOCS, `${DOCS}/json`, `${DOCS}/yaml`]) {
      expect((await app.inject({ url })).statusCode, url).toBe(401);
    }
    const creator = await createCreator(app);
    const signedIn = await app.inject({ url: `${DOCS}/json`, headers: creator.headers });
    expect(signedIn.statusCode).toBe(200);
    expect(pathsOf(signedIn.json())).toContain('/api/exams');
    await app.inject({ method: 'POST', url: '/api/auth/logout', headers: creator.headers });
    expect((await app.inject({ url: `${DOCS}/json`, headers: creator.headers })).statusCode).toBe(401);
  });

  it('with API_DOCS=off, serves no document at all, while the API goes on', async () => {
    const app = await build({ API_DOCS: 'off' });
    for (const url of [DOCS, `${DOCS}/json`, `${DOCS}/yaml`]) {
      expect((await app.inject({ url })).statusCode, url).toBe(404);
    }
    const creator = await createCreator(app);
    expect((await app.inject({ url: `${DOCS}/json`, headers: creator.headers })).statusCode).toBe(404);
    expect((await app.inject({ url: '/api/exams', headers: creator.headers })).statusCode).toBe(200);
  });

  it('refuses an API_DOCS value it does not know, naming the variable', async () => {
    await expect(build({ API_DOCS: 'private' })).rejects.toThrow(/API_DOCS/);
  });
});
