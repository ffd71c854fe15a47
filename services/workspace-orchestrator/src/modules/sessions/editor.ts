import { request } from 'node:http';
import type { CatalogueEntry } from '@exam/domain/workspace';

type Reply = { status: number; headers: Record<string, string | string[] | undefined> };

function call(
  target: string,
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string>; timeoutMs: number },
): Promise<Reply> {
  const [host, port] = target.split(':');
  return new Promise((resolve, reject) => {
    const req = request(
      { host, port: Number(port), path, method: init.method ?? 'GET', headers: init.headers, timeout: init.timeoutMs },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(init.body);
  });
}

/**
 * Waits until the editor answers its health path (code-server: /healthz) or the deadline passes; gives
 * up early when `isAlive` says the container or process has gone.
 */
export async function waitUntilHealthy(
  target: string,
  entry: CatalogueEntry,
  timeoutMs: number,
  isAlive: () => Promise<boolean>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  let nextAliveCheck = Date.now() + 1000;
  while (Date.now() < deadline) {
    if (Date.now() > nextAliveCheck) {
      if (!(await isAlive())) throw new Error('the workspace stopped while starting');
      nextAliveCheck = Date.now() + 1000;
    }
    try {
      const reply = await call(target, entry.healthPath, { timeoutMs: 1000 });
      if (reply.status === 200) return;
      last = `status ${reply.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the editor did not become ready within ${Math.round(timeoutMs / 1000)} s (${last})`);
}

/**
 * Logs in to the editor with its per-session password, as code-server's login form does, and returns
 * the session cookie's value. The proxy adds that cookie to every request it forwards, so the
 * candidate never sees or types the password.
 */
export async function loginToEditor(target: string, entry: CatalogueEntry, password: string): Promise<string> {
  const body = new URLSearchParams({ password, base: '.' }).toString();
  const reply = await call(target, entry.loginPath, {
    method: 'POST',
    body,
    timeoutMs: 5000,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) },
  });
  const cookies = ([] as string[]).concat(reply.headers['set-cookie'] ?? []);
  for (const cookie of cookies) {
    const [pair] = cookie.split(';');
    const eq = pair!.indexOf('=');
    if (pair!.slice(0, eq).trim() === entry.sessionCookie) return pair!.slice(eq + 1).trim();
  }
  throw new Error(`the editor refused its session password (status ${reply.status})`);
}

/**
 * Asks once for the editor's page (following code-server's redirect to its folder), so code-server
 * loads VS Code's server module, about 0.4 s on one core, before a candidate's page asks for it.
 * Best effort: it never throws, and a slow or failed answer is not a failed start.
 */
export async function preloadEditor(target: string, entry: CatalogueEntry, cookie: string): Promise<void> {
  let path = '/';
  for (let hops = 0; hops < 3; hops++) {
    const reply = await call(target, path, {
      headers: { cookie: `${entry.sessionCookie}=${cookie}` },
      timeoutMs: 10_000,
    }).catch(() => undefined);
    const location = reply?.headers.location;
    if (!reply || reply.status < 300 || reply.status >= 400 || typeof location !== 'string') return;
    const next = new URL(location, `http://editor${path}`);
    path = `${next.pathname}${next.search}`;
  }
}
