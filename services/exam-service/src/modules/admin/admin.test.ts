import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PlatformStatusSchema } from '@exam/domain/service-status';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, sessionIdOf, TEST_PASSWORD, type TestApp } from '../../testing/app.ts';

const TOKEN = 'test-internal-token-that-is-long-enough-0123456789';
const ADMIN = 'ops-admin@example.test';

/** A stand-in orchestrator answering its /internal/status to the internal token only, and one that never answers. */
function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

describe('platform status for administrators', () => {
  let app: TestApp;
  let orchestrator: { server: Server; url: string };
  let hanging: { server: Server; url: string };
  const asked: string[] = [];

  beforeAll(async () => {
    orchestrator = await listen((req, res) => {
      asked.push(String(req.headers['x-internal-token']));
      if (req.headers['x-internal-token'] !== TOKEN || req.url !== '/internal/status') {
        res.writeHead(401).end('{}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          service: 'workspace-orchestrator',
          items: [
            {
              name: 'code runner: python',
              state: 'failing',
              summary: 'Not installed',
              detail: 'runner image exam/runner-python is not built (scripts/build-runner-images.sh python)',
            },
          ],
        }),
      );
    });
    hanging = await listen(() => undefined);
    app = await buildTestApp({
      env: {
        ADMIN_EMAILS: ` Someone@Elsewhere.test , ${ADMIN.toUpperCase()} `,
        WORKSPACE_ORCHESTRATOR_URL: orchestrator.url,
        LLM_GATEWAY_URL: hanging.url,
        // Nothing listens on port 9 of the loopback (discard): refused at once.
        RESULTS_SERVICE_URL: 'http://127.0.0.1:9',
      },
    });
  });
  afterAll(async () => {
    await app.close();
    hanging.server.closeAllConnections();
    await Promise.all([orchestrator, hanging].map(({ server }) => new Promise((r) => server.close(r))));
  });

  const register = async (email: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email, password: TEST_PASSWORD },
    });
    const token = (response.json() as { token: string }).token;
    expect(sessionIdOf(token)).toBeTruthy();
    return { authorization: `Bearer ${token}` };
  };

  it("shows an administrator every service's status with the operator's detail, and an unreachable service as such", async () => {
    const headers = await register(ADMIN);
    expect((await app.inject({ url: '/api/admin/me', headers })).json()).toEqual({ admin: true });

    const started = Date.now();
    const response = await app.inject({ url: '/api/admin/status', headers });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const status = PlatformStatusSchema.parse(response.json());
    // The gateway that never answers is cut at the 2 s deadline, not waited for.
    expect(Date.now() - started).toBeLessThan(4500);

    const byService = new Map(status.services.map((s) => [s.service, s]));
    expect([...byService.keys()].sort()).toEqual([
      'exam-service',
      'llm-gateway',
      'results-service',
      'workspace-orchestrator',
    ]);
    const own = byService.get('exam-service')!;
    expect(own.reachable).toBe(true);
    expect(own.items.find((i) => i.name === 'database')).toMatchObject({ state: 'ok' });
    // The test database is shared with other suites' mail: the figures are whatever it holds, in words.
    expect(own.items.find((i) => i.name === 'mail queue')?.summary).toMatch(/^\d+ waiting, \d+ given up$/);
    expect(own.items.find((i) => i.name === 'mail delivery')?.detail).toMatch(/SMTP_URL is not set/);

    // Here, and only here, the operator reads which image is missing and the script that builds it.
    expect(byService.get('workspace-orchestrator')).toMatchObject({
      reachable: true,
      items: [
        { name: 'code runner: python', state: 'failing', detail: expect.stringContaining('build-runner-images.sh') },
      ],
    });
    expect(asked).toContain(TOKEN);

    expect(byService.get('llm-gateway')).toMatchObject({ reachable: false, items: [{ state: 'failing' }] });
    expect(byService.get('llm-gateway')!.items[0]!.detail).toMatch(/no answer within 2000 ms/);
    expect(byService.get('results-service')).toMatchObject({ reachable: false });
  });

  it('refuses every other creator, and anyone without a session', async () => {
    const other = await createCreator(app);
    expect((await app.inject({ url: '/api/admin/me', headers: other.headers })).json()).toEqual({ admin: false });
    const refused = await app.inject({ url: '/api/admin/status', headers: other.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('Only platform administrators can see the platform status');
    expect(refused.body).not.toMatch(/runner|database/);
    expect((await app.inject({ url: '/api/admin/status' })).statusCode).toBe(401);
  });

  it("answers each service's own /internal/status to the internal token only", async () => {
    const own = await app.inject({ url: '/internal/status', headers: { 'x-internal-token': TOKEN } });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({
      service: 'exam-service',
      items: expect.arrayContaining([expect.objectContaining({ name: 'migrations' })]),
    });
    expect((await app.inject({ url: '/internal/status' })).statusCode).toBe(401);
  });
});
