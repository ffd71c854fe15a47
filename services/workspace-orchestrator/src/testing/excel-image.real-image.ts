import type Docker from 'dockerode';
import ExcelJS from 'exceljs';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp } from './app.ts';
import { containerOf, execIn } from './docker.ts';
import { httpCall } from './http.ts';
import {
  createTimedSession,
  engineWith,
  fileFromContainer,
  freePort,
  REAL_IMAGE_ENV,
  type RealApp,
} from './real-image-session.ts';

// The 'excel' workspace (infra/workspaces/excel): Univer in the browser, the workbook kept as a real .xlsx in the
// workspace folder. Started by the orchestrator, entered through its proxy, and edited by headless Chromium as a
// candidate would. Run by `pnpm --filter @exam/workspace-orchestrator test:real-image`.
const IMAGE = 'exam/workspace-sheets';
const WORKBOOK = '/home/coder/workspace/workbook.xlsx';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

async function openWorkbook(bytes: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

describe(`the excel workspace (${IMAGE}) through the orchestrator`, () => {
  let app: RealApp;
  let docker: Docker;
  let origin: string;
  let port: number;
  let created: Awaited<ReturnType<typeof createTimedSession>>;
  let containerId: string;

  beforeAll(async () => {
    docker = await engineWith(inject('dockerSocket'), IMAGE);
    // The editors' listener on a known port, so its origin is WORKSPACE_ORIGIN and a real browser passes the
    // proxy's origin check.
    port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    app = await buildTestApp({
      socketPath: inject('dockerSocket')!,
      instance: inject('workspaceInstance'),
      env: { ...REAL_IMAGE_ENV, WORKSPACE_ORIGIN: origin },
    });
    await app.editors.listen({ host: '127.0.0.1', port });
    created = await createTimedSession(app, 'excel');
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
    expect(created.session).toMatchObject({ status: 'ready', warm: false, workspaceType: 'excel' });
    console.info(`[real-image] excel create → ready (cold, one session): ${Math.round(created.createToReadyMs)} ms`);
    const info = await docker.getContainer(containerId).inspect();
    expect(info.Config.Image).toBe(IMAGE);
    expect([
      info.Config.User,
      info.HostConfig.ReadonlyRootfs,
      info.HostConfig.CapDrop,
      info.HostConfig.NetworkMode,
    ]).toEqual(['1000:1000', true, ['ALL'], 'exam-workspaces']);
    const processes = await execIn(docker, containerId, ['sh', '-c', 'cat /proc/1/status | grep -E "^(Uid|CapEff)"']);
    expect(processes.output).toMatch(/Uid:\s+1000\s/);
    expect(processes.output).toMatch(/CapEff:\s+0+\s*$/m);
    // The app checks its own cookie on every request, not only the proxy: from inside, without it, nothing.
    const bare = await execIn(docker, containerId, [
      'node',
      '-e',
      "fetch('http://127.0.0.1:8080/api/workbook').then((r) => console.log('status', r.status))",
    ]);
    expect(bare.output).toContain('status 401');
  });

  it('serves the spreadsheet through /workspace/{sessionId}/ and saves a workbook posted to its API as .xlsx', async () => {
    const { session, attempt } = created;
    expect((await httpCall(origin, session.editorPath)).status).toBe(401);
    // The exam page's way in: a launch address on WORKSPACE_ORIGIN, exchanged for the proxy's cookie.
    const launch = await app.inject({
      method: 'POST',
      url: `/api/session/${session.sessionId}/launch`,
      headers: attempt.headers,
    });
    const launchUrl = new URL(launch.json<{ editorUrl: string }>().editorUrl);
    const opened = await httpCall(origin, `${launchUrl.pathname}${launchUrl.search}`);
    expect(opened.status).toBe(302);
    const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
    const page = await httpCall(origin, session.editorPath, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('id="save-status"');
    expect(page.body).toMatch(/src="app\.js"/);

    const snapshot = {
      sheetOrder: ['s1', 's2'],
      sheets: {
        s1: {
          id: 's1',
          name: 'Prices',
          cellData: {
            0: { 0: { v: 19.99, t: 2, s: { n: { pattern: '#,##0.00' } } } },
            1: { 0: { v: 5, t: 2 } },
            2: { 0: { f: '=SUM(A1:A2)', v: 24.99, t: 2, s: { n: { pattern: '#,##0.00' } } } },
          },
        },
        s2: { id: 's2', name: 'Report', cellData: { 0: { 0: { f: '=Prices!A3*2', v: 49.98, t: 2 } } } },
      },
    };
    const post = (body: unknown) =>
      httpCall(origin, `${session.editorPath}api/workbook`, {
        method: 'POST',
        headers: { cookie, origin, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const refused = await post({ revision: 1, snapshot: { sheetOrder: [], sheets: {} } });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body).error).toEqual({
      field: 'snapshot.sheetOrder',
      reason: 'must list at least one sheet',
    });
    expect((await post({ revision: 2, snapshot })).status).toBe(200);

    const workbook = await openWorkbook(await fileFromContainer(docker, containerId, WORKBOOK));
    expect(workbook.worksheets.map((ws) => ws.name)).toEqual(['Prices', 'Report']);
    expect(workbook.getWorksheet('Prices')!.getCell('A3').value).toEqual({ formula: 'SUM(A1:A2)', result: 24.99 });
    expect(workbook.getWorksheet('Prices')!.getCell('A3').numFmt).toBe('#,##0.00');
    expect(workbook.getWorksheet('Report')!.getCell('A1').value).toEqual({ formula: 'Prices!A3*2', result: 49.98 });

    // Collection lists the workbook with its media type; a binary file's bytes are not copied into results
    // (WorkspaceFileSchema, isBinary), which is why the file itself was read through the engine above.
    const files = await app.inject({
      method: 'GET',
      url: `/api/session/${session.sessionId}/files`,
      headers: attempt.headers,
    });
    expect(files.json().workspaceFiles['workbook.xlsx']).toMatchObject({
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      isBinary: true,
    });
  });

  it('a candidate types a number and a formula in Chromium; the saved .xlsx holds the formula and its value', async () => {
    const { session, attempt } = created;
    const launch = await app.inject({
      method: 'POST',
      url: `/api/session/${session.sessionId}/launch`,
      headers: attempt.headers,
    });
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
    try {
      const page = await browser.newPage();
      const opened = performance.now();
      await page.goto(launch.json<{ editorUrl: string }>().editorUrl);
      // The workbook posted above is loaded: its first sheet is open.
      await page.waitForFunction(() => (globalThis as unknown as { examSheets?: unknown }).examSheets, null, {
        timeout: 60_000,
      });
      console.info(
        `[real-image] excel page to spreadsheet ready in Chromium: ${Math.round(performance.now() - opened)} ms`,
      );
      await expect.poll(() => page.textContent('#save-status')).not.toBe('Loading…');
      // Click A1 as a candidate does (its place on the grid's canvas from Univer's API), then type into A1 and A2,
      // each confirmed with Enter.
      type Rect = { x: number; y: number; width: number; height: number };
      const cell = await page.evaluate(() => {
        type Api = { getActiveWorkbook(): { getActiveSheet(): { getRange(a: string): { getCellRect(): Rect } } } };
        const api = (globalThis as unknown as { examSheets: { univerAPI: Api } }).examSheets.univerAPI;
        const { x, y, width, height } = api.getActiveWorkbook().getActiveSheet().getRange('A1').getCellRect();
        return { x, y, width, height };
      });
      // The grid is Univer's largest canvas; the cell's rectangle is relative to it.
      const boxes = await Promise.all((await page.locator('canvas').all()).map((c) => c.boundingBox()));
      const grid = boxes.filter((b) => b !== null).sort((a, b) => b.width * b.height - a.width * a.height)[0]!;
      const a1 = { x: grid.x + cell.x + cell.width / 2, y: grid.y + cell.y + cell.height / 2 };
      await page.mouse.click(a1.x, a1.y);
      await page.keyboard.type('21');
      await page.keyboard.press('Enter');
      await page.keyboard.type('=A1*2');
      await page.keyboard.press('Enter');
      await expect
        .poll(() =>
          page.evaluate(() => {
            type Api = {
              getActiveWorkbook(): { getActiveSheet(): { getRange(a: string): { getFormula(): string } } };
            };
            const api = (globalThis as unknown as { examSheets: { univerAPI: Api } }).examSheets.univerAPI;
            return api.getActiveWorkbook().getActiveSheet().getRange('A2').getFormula();
          }),
        )
        .toBe('=A1*2');
      await expect.poll(() => page.textContent('#save-status'), { timeout: 20_000 }).toMatch(/^Saved /);
    } finally {
      await browser.close();
    }
    const saved = async () =>
      (await openWorkbook(await fileFromContainer(docker, containerId, WORKBOOK))).getWorksheet('Prices')!;
    await expect
      .poll(async () => (await saved()).getCell('A2').value, { timeout: 10_000 })
      .toEqual({
        formula: 'A1*2',
        result: 42,
      });
    const sheet = await saved();
    expect(sheet.getCell('A1').value).toBe(21);
    // What the candidate did not touch is as the earlier save left it.
    expect(sheet.getCell('A3').value).toEqual({ formula: 'SUM(A1:A2)', result: 63 });
  });
});
