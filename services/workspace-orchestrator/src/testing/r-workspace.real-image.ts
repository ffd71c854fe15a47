import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dockerClient } from '../engine/docker-client.ts';
import { buildTestApp, newAttempt, type TestApp } from './app.ts';
import { containerOf, execIn } from './docker.ts';
import { editorCookie, editorsBase, httpCall } from './http.ts';

// The real 'r-studio' workspace (exam/workspace-r, infra/workspaces/r-studio) through the orchestrator: R with the
// exam-r extension in code-server. Its editor features come from the extension's R helper (r/helper.R), asked here
// the way the extension asks it; a script runs in an interactive R session as in the extension's console, and its
// plots appear as PNG files in plots/. Run by `pnpm --filter @exam/workspace-orchestrator test:real-image`.
const IMAGE = 'exam/workspace-r';
const EXTENSION = '/opt/code-server/node_modules/code-server/lib/vscode/extensions/exam-r';
const socketPath = inject('dockerSocket');
const REAL_IMAGE_ENV = {
  WORKSPACE_IMAGE_OVERRIDES: '',
  WORKSPACE_MEMORY_MB: '1024',
  WORKSPACE_CPUS: '1',
  WORKSPACE_PIDS_LIMIT: '512',
  START_TIMEOUT_SECONDS: '60',
};

/** execIn's output is Docker's multiplexed stream (8-byte frame headers, latin1): the text the process wrote. */
function plain(output: string): string {
  const bytes = Buffer.from(output, 'latin1');
  const parts: Buffer[] = [];
  for (let at = 0; at + 8 <= bytes.length;) {
    const size = bytes.readUInt32BE(at + 4);
    parts.push(bytes.subarray(at + 8, at + 8 + size));
    at += 8 + size;
  }
  return Buffer.concat(parts).toString('utf8');
}

describe(`the real R workspace (${IMAGE}) through the orchestrator`, () => {
  let app: TestApp & Awaited<ReturnType<typeof buildTestApp>>;
  let docker: Docker;
  let attempt: ReturnType<typeof newAttempt>;
  let session: { sessionId: string; editorPath: string; status: string; workspaceType: string };
  let containerId: string;
  const sh = async (script: string, timeoutMs = 30_000) => {
    const run = await execIn(docker, containerId, ['sh', '-c', script], { timeoutMs });
    return { exitCode: run.exitCode, output: plain(run.output) };
  };
  /** Sends requests to the extension's R helper as the extension does (JSON lines) and reads its answers. */
  const askHelper = async (requests: object[]) => {
    const lines = requests.map((r, i) => JSON.stringify({ ...r, id: i + 1 })).join('\n');
    const run = await sh(
      `echo ${Buffer.from(`${lines}\n`).toString('base64')} | base64 -d | Rscript --vanilla ${EXTENSION}/r/helper.R`,
    );
    expect(run.exitCode, run.output).toBe(0);
    return run.output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  };

  beforeAll(async () => {
    if (!socketPath) throw new Error('The real-image test needs the private Docker engine; it is never skipped.');
    docker = dockerClient(socketPath);
    await docker.getImage(IMAGE).inspect();
    app = await buildTestApp({ socketPath, instance: inject('workspaceInstance'), env: REAL_IMAGE_ENV });
    attempt = newAttempt(app, { workspaceType: 'r-studio' });
    const started = performance.now();
    const created = await app.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: attempt.headers,
      payload: {},
    });
    if (created.statusCode !== 200) throw new Error(`create answered ${created.statusCode}: ${created.body}`);
    console.info(`[real-image] r-studio: create → ready (cold): ${Math.round(performance.now() - started)} ms`);
    session = created.json();
    containerId = await containerOf(docker, session.sessionId);
  });
  afterAll(async () => {
    if (session)
      await app.inject({ method: 'DELETE', url: `/api/session/${session.sessionId}`, headers: attempt.headers });
    await app?.close();
  });

  it('starts locked down and serves the workbench, with the exam-r extension among the built-in extensions', async () => {
    expect(session).toMatchObject({ status: 'ready', workspaceType: 'r-studio' });
    const info = await docker.getContainer(containerId).inspect();
    expect([info.Config.Image, info.Config.User, info.HostConfig.ReadonlyRootfs]).toEqual([IMAGE, '1000:1000', true]);
    const page = await httpCall(await editorsBase(app), `${session.editorPath}?folder=%2Fhome%2Fcoder%2Fworkspace`, {
      headers: await editorCookie(app, attempt.headers, session.sessionId),
    });
    expect(page.status).toBe(200);
    const manifest = JSON.parse((await sh(`cat ${EXTENSION}/package.json`)).output) as {
      main: string;
      activationEvents: string[];
      contributes: { commands: Array<{ command: string }>; keybindings: Array<{ command: string; key: string }> };
    };
    expect(manifest.activationEvents).toContain('onLanguage:r');
    expect(manifest.contributes.commands.map((c) => c.command)).toEqual([
      'exam-r.runSelection',
      'exam-r.runScript',
      'exam-r.console',
    ]);
    expect(manifest.contributes.keybindings).toContainEqual(
      expect.objectContaining({ command: 'exam-r.runSelection', key: 'ctrl+enter' }),
    );
    expect(
      (await sh(`test -f ${EXTENSION}/${manifest.main} && node --check ${EXTENSION}/${manifest.main}`)).exitCode,
    ).toBe(0);
    // VS Code's own R grammar is there for highlighting.
    expect((await sh(`ls ${EXTENSION}/../r/syntaxes`)).output).toMatch(/r\.tmLanguage\.json/);
  });

  it("answers the editor's completion, hover and diagnostics requests for R code", async () => {
    const started = performance.now();
    const [args, names, hover, broken, linted, clean] = await askHelper([
      { op: 'complete', line: 'x <- mean(c(1, NA), na' },
      { op: 'complete', line: 'summ' },
      { op: 'hover', word: 'lm' },
      { op: 'lint', text: 'x <- c(1, 2\ny <- 3\n' },
      { op: 'lint', text: 'total = sum(1:10)\n' },
      { op: 'lint', text: 'total <- sum(1:10)\n' },
    ]);
    console.info(`[real-image] R helper: start and six answers: ${Math.round(performance.now() - started)} ms`);
    expect(args).toMatchObject({ id: 1, token: 'na' });
    expect(args!.items).toContain('na.rm=');
    expect(names!.items).toEqual(expect.arrayContaining(['summary', 'summary.lm']));
    expect(hover!.text).toMatch(/^lm\(formula, data, subset/);
    expect(hover!.text).toContain('Fitting Linear Models');
    // The parser's error, where R puts it; then lintr's style lint; a clean script gets none.
    expect(broken!.diagnostics).toEqual([
      expect.objectContaining({ line: 2, severity: 'error', message: expect.stringContaining('unexpected symbol') }),
    ]);
    expect(linted!.diagnostics).toContainEqual(
      expect.objectContaining({ line: 1, column: 7, source: 'lintr: assignment_linter', severity: 'info' }),
    );
    expect(clean!.diagnostics).toEqual([]);
  });

  it('runs a script in an interactive R session as the console does, and its plots appear in plots/', async () => {
    const script = [
      'scores <- c(71, 84, 90, 65, 78)',
      'cat("mean score:", mean(scores), "\\n")',
      'hist(scores, main = "Scores")',
      'plot(scores, type = "b")',
    ].join('\n');
    await sh(`echo ${Buffer.from(`${script}\n`).toString('base64')} | base64 -d > /home/coder/workspace/analysis.R`);
    // What "R: Run Script" sends to the extension's R console.
    const run = await sh(
      'cd /home/coder/workspace && echo \'source("/home/coder/workspace/analysis.R", echo = TRUE)\' | R --interactive --no-save --no-restore --quiet',
      60_000,
    );
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toContain('mean score: 77.6');
    const plots = await sh(
      'cd /home/coder/workspace/plots && for f in *.png; do echo "$f $(head -c 4 "$f" | od -An -c | tr -d " ")"; done',
    );
    expect(plots.output.trim().split('\n')).toEqual(['plot-001.png 211PNG', 'plot-002.png 211PNG']);
    // The script is the candidate's file, collected as at submit.
    const files = await app.inject({
      method: 'GET',
      url: `/api/session/${session.sessionId}/files`,
      headers: attempt.headers,
    });
    expect(files.json().workspaceFiles['analysis.R']).toMatchObject({ content: `${script}\n` });
  });
});
