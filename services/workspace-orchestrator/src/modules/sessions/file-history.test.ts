import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { WorkspaceFile } from '@exam/domain/internal';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { pack } from 'tar-stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, newAttempt } from '../../testing/app.ts';
import { fakeEngine } from '../../testing/fake-engine.ts';

type App = Awaited<ReturnType<typeof buildTestApp>>;
const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };

const text = (content: string, lastModified = new Date(0).toISOString()): WorkspaceFile => ({
  content,
  lastModified,
  size: Buffer.byteLength(content),
  type: 'text/plain',
  isBinary: false,
  truncated: false,
});
/** A read of a workspace as collectFiles answers it (null prototype, like the real one). */
const read = (files: Record<string, WorkspaceFile>) => Object.assign(Object.create(null), files);
const at = (seconds: number) => new Date(Date.UTC(2030, 0, 1, 9, 0, seconds));

/** A fresh attempt of an exam that keeps workspace files (or not, with `saveFilesInResults: false`). */
function attemptOf(app: App, saveFilesInResults = true) {
  const attempt = newAttempt(app, { saveFilesInResults });
  return { attemptId: attempt.claims.sub, who: { attemptId: attempt.claims.sub, examId: attempt.claims.examId } };
}

async function historyOf(app: App, attemptId: string) {
  const response = await app.inject({
    method: 'GET',
    url: `/internal/attempts/${attemptId}/file-history`,
    headers: internal,
  });
  expect(response.statusCode).toBe(200);
  return response.json() as {
    files: { path: string; changes: { at: string; content: string; source: string | null; deleted: boolean }[] }[];
    capped: boolean;
  };
}

describe('the workspace file history', () => {
  let app: App;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  it('answers each change as the file text rebuilt from the stored diffs, with deletions, oldest first', async () => {
    const { attemptId, who } = attemptOf(app);
    const { history } = app.workspaces;
    const long = Array.from({ length: 40 }, (_, i) => `    step_${i} = ${i}  # café ☕`).join('\n') + '\n';
    const first = `def solve():\n${long}    return 0\n`;
    const second = first.replace('step_7 = 7', 'step_7 = 70 # 👩‍💻');
    const third = second.replace('    return 0\n', '    return step_39\n').replace('step_3 =', 'step_3 = -');

    expect(await history.record(who, read({ 'main.py': text(first), 'notes.md': text('# plan\n') }), at(0))).toEqual({
      stored: 2,
      capped: false,
    });
    // Nothing changed: nothing stored.
    expect(await history.record(who, read({ 'main.py': text(first), 'notes.md': text('# plan\n') }), at(5))).toEqual({
      stored: 0,
      capped: false,
    });
    await history.record(who, read({ 'main.py': text(second), 'notes.md': text('# plan\n') }), at(10));
    await history.record(who, read({ 'main.py': text(third) }), at(15));

    expect(await historyOf(app, attemptId)).toEqual({
      capped: false,
      files: [
        {
          path: 'main.py',
          changes: [
            { at: at(0).toISOString(), content: first, source: null, deleted: false },
            { at: at(5).toISOString(), content: second, source: null, deleted: false },
            { at: at(10).toISOString(), content: third, source: null, deleted: false },
          ],
        },
        {
          path: 'notes.md',
          changes: [
            { at: at(0).toISOString(), content: '# plan\n', source: null, deleted: false },
            { at: at(15).toISOString(), content: '', source: null, deleted: true },
          ],
        },
      ],
    });
    // Stored as the first text and then diffs, each far smaller than the file.
    const stored = await app.workspaces.historyRepo.listVersions(attemptId);
    expect(stored.map((row) => [row.path, row.kind])).toEqual([
      ['main.py', 'full'],
      ['main.py', 'diff'],
      ['main.py', 'diff'],
      ['notes.md', 'full'],
      ['notes.md', 'deleted'],
    ]);
    expect(stored[1]!.body.length).toBeLessThan(first.length / 5);
  });

  it('dates a change by the file mtime, kept after the previous look and not after the look that found it', async () => {
    const { attemptId, who } = attemptOf(app);
    const { history } = app.workspaces;
    // The first look has nothing before it: a starter file's old mtime is not when the attempt made it.
    await history.record(who, read({ 'a.py': text('1\n', at(-3600).toISOString()) }), at(0));
    await history.record(who, read({ 'a.py': text('2\n', at(3).toISOString()) }), at(5));
    await history.record(who, read({ 'a.py': text('3\n', at(-100).toISOString()) }), at(10));
    await history.record(who, read({ 'a.py': text('4\n', at(99).toISOString()) }), at(15));
    const [file] = (await historyOf(app, attemptId)).files;
    expect(file!.changes.map((change) => change.at)).toEqual([at(0), at(3), at(5), at(15)].map((d) => d.toISOString()));
  });

  it('follows text files only, and takes a file left out for the file limit for kept, not deleted', async () => {
    const { attemptId, who } = attemptOf(app);
    const { history } = app.workspaces;
    await history.record(who, read({ 'data/a.txt': text('a\n'), 'solution.py': text('x = 1\n') }), at(0));
    const second = read({
      'solution.py': text('x = 2\n'),
      'image.png': { ...text(''), type: 'image/png', isBinary: true },
      link: { ...text(''), type: 'symlink' },
      'data/': { ...text(''), type: 'folder', omitted: { reason: 'file-limit', files: 3 } },
    });
    expect(await history.record(who, second, at(5))).toEqual({ stored: 1, capped: false });
    const { files } = await historyOf(app, attemptId);
    expect(files.map((file) => [file.path, file.changes.length])).toEqual([
      ['data/a.txt', 1],
      ['solution.py', 2],
    ]);
  });

  it('ignores a read older than one already stored (a look and the collection racing)', async () => {
    const { attemptId, who } = attemptOf(app);
    const { history } = app.workspaces;
    await history.record(who, read({ 'a.py': text('collected\n') }), at(10));
    expect(await history.record(who, read({ 'a.py': text('older\n') }), at(9))).toEqual({
      stored: 0,
      capped: false,
    });
    const [file] = (await historyOf(app, attemptId)).files;
    expect(file!.changes.map((change) => change.content)).toEqual(['collected\n']);
  });

  it('stores nothing for an exam that does not keep workspace files in results', async () => {
    const { attemptId, who } = attemptOf(app, false);
    expect(await app.workspaces.history.record(who, read({ 'a.py': text('secret\n') }), at(0))).toEqual({
      stored: 0,
      capped: false,
    });
    expect(await historyOf(app, attemptId)).toEqual({ files: [], capped: false });
  });

  it('answers no files for an attempt it never saw, and 401 without the internal token', async () => {
    expect(await historyOf(app, `attempt-${randomUUID()}`)).toEqual({ files: [], capped: false });
    const anonymous = await app.inject({ method: 'GET', url: '/internal/attempts/any/file-history' });
    expect(anonymous.statusCode).toBe(401);
    const attempt = newAttempt(app);
    const asCandidate = await app.inject({
      method: 'GET',
      url: `/internal/attempts/${attempt.claims.sub}/file-history`,
      headers: attempt.headers,
    });
    expect(asCandidate.statusCode).toBe(401);
  });

  it('refuses an attempt id longer than 64 characters with 400 naming the field', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/internal/attempts/${'a'.repeat(65)}/file-history`,
      headers: internal,
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('attemptId');
  });
});

describe('the file history cap', () => {
  let app: App;
  beforeAll(async () => {
    // The first version below costs 40 + 4 + 64 bytes; the second would pass 200.
    app = await buildTestApp({ env: { WORKSPACE_HISTORY_MAX_BYTES: '200' } });
  });
  afterAll(() => app.close());

  it('stores nothing past WORKSPACE_HISTORY_MAX_BYTES and says capped, keeping what was stored before', async () => {
    const { attemptId, who } = attemptOf(app);
    const { history } = app.workspaces;
    const first = 'a'.repeat(39) + '\n';
    expect(await history.record(who, read({ 'a.py': text(first) }), at(0))).toEqual({ stored: 1, capped: false });
    expect(await history.record(who, read({ 'a.py': text(first + 'b'.repeat(100)) }), at(5))).toEqual({
      stored: 0,
      capped: true,
    });
    // Once capped, even a small change (or the snapshot at collection) is not stored.
    expect(await history.record(who, read({ 'a.py': text('c\n') }), at(10))).toEqual({ stored: 0, capped: true });
    expect(await historyOf(app, attemptId)).toEqual({
      capped: true,
      files: [{ path: 'a.py', changes: [{ at: at(0).toISOString(), content: first, source: null, deleted: false }] }],
    });
  });
});

describe('file snapshots across orchestrator replicas', () => {
  const apps: App[] = [];
  const fakes: ReturnType<typeof fakeEngine>[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    await Promise.all(fakes.splice(0).map((fake) => fake.engine.close()));
  });

  /** A fake engine on `host` whose workspaces hold `files` (a tar as Docker's archive API sends it), counting reads. */
  function engineWith(host: string, files: Map<string, string>) {
    const fake = fakeEngine(host);
    fakes.push(fake);
    let archives = 0;
    fake.engine.archiveWorkspace = async () => {
      archives += 1;
      const tar = pack();
      for (const [name, content] of files) tar.entry({ name: `workspace/${name}`, mtime: new Date() }, content);
      tar.finalize();
      return Readable.from(tar);
    };
    return { fake, archives: () => archives };
  }

  /** An orchestrator replica on the engine's host (replicas on one host share its engine). */
  async function replica(engine: ReturnType<typeof engineWith>) {
    const app = await buildTestApp({
      env: { WORKSPACE_HISTORY_INTERVAL_SECONDS: '3600' },
      deps: { engines: [engine.fake.engine] },
    });
    apps.push(app);
    return app;
  }

  it('two replicas on one host look at a running workspace once between them; another host leaves it alone', async () => {
    const files = new Map([['main.py', 'print(1)\n']]);
    const engine = engineWith(`host-${randomUUID()}`, files);
    const a = await replica(engine);
    const b = await replica(engine);
    const elsewhere = await replica(engineWith(`host-${randomUUID()}`, files));
    const attempt = newAttempt(a);
    // One exam-service answers every replica.
    b.exams.set(attempt.claims.examId, a.exams.get(attempt.claims.examId)!);
    const session = await a.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: attempt.headers,
      payload: {},
    });
    expect(session.statusCode).toBe(200);

    expect(await elsewhere.jobs.snapshotFiles()).toBe(0);
    const [fromA, fromB] = await Promise.all([a.jobs.snapshotFiles(), b.jobs.snapshotFiles()]);
    expect(fromA + fromB).toBe(1);
    expect(engine.archives()).toBe(1);
    // Not due again within the interval, on either replica.
    expect(await Promise.all([a.jobs.snapshotFiles(), b.jobs.snapshotFiles()])).toEqual([0, 0]);

    const { files: history } = await historyOf(b, attempt.claims.sub);
    expect(history).toEqual([
      { path: 'main.py', changes: [expect.objectContaining({ content: 'print(1)\n', deleted: false })] },
    ]);
  });

  it('never reads the workspace of an exam that keeps no files in results', async () => {
    const engine = engineWith(`host-${randomUUID()}`, new Map([['main.py', 'secret\n']]));
    const app = await replica(engine);
    const attempt = newAttempt(app, { saveFilesInResults: false });
    const session = await app.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: attempt.headers,
      payload: {},
    });
    expect(session.statusCode).toBe(200);
    expect(await app.jobs.snapshotFiles()).toBe(0);
    expect(await app.jobs.snapshotFiles()).toBe(0);
    expect(engine.archives()).toBe(0);
    expect(await historyOf(app, attempt.claims.sub)).toEqual({ files: [], capped: false });
  });
});
