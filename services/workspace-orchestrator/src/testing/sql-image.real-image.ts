import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp } from './app.ts';
import { containerOf, execIn } from './docker.ts';
import { editorCookie, editorsBase, httpCall, type RawReply } from './http.ts';
import { createTimedSession, engineWith, REAL_IMAGE_ENV, type RealApp } from './real-image-session.ts';

// The 'oracle-sql' workspace (infra/workspaces/oracle-sql): Adminer on the candidate's SQLite database, seeded from
// the question's setup.sql, every statement kept in queries.sql. Started by the orchestrator and used through its
// proxy as the candidate's browser would. Run by `pnpm --filter @exam/workspace-orchestrator test:real-image`.
const IMAGE = 'exam/workspace-sql';
const SETUP = `CREATE TABLE employees (id INTEGER PRIMARY KEY, name TEXT NOT NULL, salary INTEGER);
INSERT INTO employees (name, salary) VALUES ('Ada', 72000), ('Grace', 81000), ('Linus', 50000);`;

/** A browser's cookie jar for one origin: the proxy's cookie plus whatever Adminer sets (its session, its key). */
class Cookies {
  private readonly jar = new Map<string, string>();
  constructor(initial: string) {
    this.take([initial]);
  }
  take(setCookies: string | string[] | undefined) {
    for (const line of ([] as string[]).concat(setCookies ?? [])) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
  }
  get header() {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

describe(`the oracle-sql workspace (${IMAGE}) through the orchestrator`, () => {
  let app: RealApp;
  let docker: Docker;
  let base: string;
  let created: Awaited<ReturnType<typeof createTimedSession>>;
  let containerId: string;

  beforeAll(async () => {
    docker = await engineWith(inject('dockerSocket'), IMAGE);
    app = await buildTestApp({
      socketPath: inject('dockerSocket')!,
      instance: inject('workspaceInstance'),
      env: REAL_IMAGE_ENV,
    });
    base = await editorsBase(app);
    created = await createTimedSession(app, 'oracle-sql');
    containerId = await containerOf(docker, created.session.sessionId);
  });
  afterAll(async () => {
    if (created)
      await app.inject({
        method: 'DELETE',
        url: `/api/session/${created.session.sessionId}`,
        headers: created.attempt.headers,
      });
    await app?.close();
  });

  it('becomes ready from a cold start, locked down like every workspace', async () => {
    expect(created.session).toMatchObject({ status: 'ready', warm: false, workspaceType: 'oracle-sql' });
    console.info(
      `[real-image] oracle-sql create → ready (cold, one session): ${Math.round(created.createToReadyMs)} ms`,
    );
    const info = await docker.getContainer(containerId).inspect();
    expect(info.Config.Image).toBe(IMAGE);
    expect([
      info.Config.User,
      info.HostConfig.ReadonlyRootfs,
      info.HostConfig.CapDrop,
      info.HostConfig.NetworkMode,
    ]).toEqual(['1000:1000', true, ['ALL'], 'exam-workspaces']);
    const status = await execIn(docker, containerId, ['sh', '-c', 'grep -E "^(Uid|CapEff)" /proc/1/status']);
    expect(status.output).toMatch(/Uid:\s+1000\s/);
    expect(status.output).toMatch(/CapEff:\s+0+\s*$/m);
    // The workbench checks its own cookie on every request, not only the proxy: from inside, without it, nothing.
    const bare = await execIn(docker, containerId, [
      'php',
      '-r',
      "@file_get_contents('http://127.0.0.1:8080/'); echo $http_response_header[0];",
    ]);
    expect(bare.output).toContain('401');
  });

  it("applies the question's setup script once, runs the candidate's queries in Adminer and collects them", async () => {
    const { session, attempt } = created;
    // The orchestrator copies a SQL question's setup script into the workspace; here it arrives after the start.
    const copied = await execIn(docker, containerId, [
      'sh',
      '-c',
      `cat > /home/coder/workspace/setup.sql <<'SQL'\n${SETUP}\nSQL`,
    ]);
    expect(copied.exitCode).toBe(0);

    expect((await httpCall(base, session.editorPath)).status).toBe(401);
    const cookies = new Cookies((await editorCookie(app, attempt.headers, session.sessionId)).cookie);
    const get = async (path: string) => {
      const reply = await httpCall(base, path, { headers: { cookie: cookies.header } });
      cookies.take(reply.headers['set-cookie']);
      return reply;
    };
    const entry = await get(session.editorPath);
    expect(entry.status).toBe(302);
    const location = new URL(String(entry.headers.location), new URL(session.editorPath, base));
    expect(location.searchParams.get('db')).toBe('/home/coder/workspace/database.sqlite');
    const sqlPage = await get(`${location.pathname}${location.search}`);
    expect(sqlPage.status, sqlPage.body.slice(0, 500)).toBe(200);
    expect(sqlPage.body).toContain('employees');
    const token = /name=["']token["'] value=["']([^"']+)["']/.exec(sqlPage.body)?.[1];
    expect(token).toBeTruthy();

    const run = async (query: string): Promise<RawReply> => {
      const body = new URLSearchParams({ query, limit: '', token: token! }).toString();
      const reply = await httpCall(base, `${location.pathname}${location.search}`, {
        method: 'POST',
        headers: { cookie: cookies.header, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      cookies.take(reply.headers['set-cookie']);
      return reply;
    };
    const select = await run('SELECT name, salary FROM employees WHERE salary > 60000 ORDER BY salary DESC');
    expect(select.status).toBe(200);
    expect(select.body).toMatch(/Grace[\s\S]*81000[\s\S]*Ada[\s\S]*72000/);
    expect(select.body).not.toContain('Linus');
    const update = await run("UPDATE employees SET salary = salary + 1000 WHERE name = 'Linus'");
    expect(update.body).toContain('1 row');
    expect((await run('SELECT missing_column FROM employees')).body).toMatch(/class=.error/);

    const files = await app.inject({
      method: 'GET',
      url: `/api/session/${session.sessionId}/files`,
      headers: attempt.headers,
    });
    const collected = files.json().workspaceFiles;
    const log: string = collected['queries.sql'].content;
    expect(log).toMatch(/-- \d{4}-\d\d-\d\dT[\d:]+Z · setup\.sql applied/);
    expect(log).toContain('SELECT name, salary FROM employees WHERE salary > 60000 ORDER BY salary DESC;');
    expect(log).toContain('-- result: 2 row(s)\n-- name\tsalary\n-- Grace\t81000\n-- Ada\t72000\n');
    expect(log).toContain("UPDATE employees SET salary = salary + 1000 WHERE name = 'Linus';");
    expect(log).toMatch(/SELECT missing_column FROM employees;\n-- error: no such column: missing_column/);
    // Once: the setup is not applied again, so the candidate's change stays.
    await get(session.editorPath);
    const again = await execIn(docker, containerId, [
      'sqlite3',
      '/home/coder/workspace/database.sqlite',
      "SELECT count(*), (SELECT salary FROM employees WHERE name = 'Linus') FROM employees",
    ]);
    expect(again.output).toContain('3|51000');
    expect(collected['database.sqlite']).toMatchObject({ isBinary: true });
  });
});
