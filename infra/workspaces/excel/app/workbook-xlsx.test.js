// Run at image build (Dockerfile: npm test): the .xlsx written from a Univer snapshot keeps formulas with their
// values, number formats and sheets, reads back the same, and the server refuses bad saves and strangers.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import ExcelJS from 'exceljs';
import { createSheetsServer } from './server.js';
import { invalidSnapshot, snapshotToXlsx, xlsxToSnapshot } from './workbook-xlsx.js';

const snapshot = {
  id: 'w',
  sheetOrder: ['a', 'b'],
  styles: { money: { n: { pattern: '#,##0.00' }, bl: 1 } },
  sheets: {
    a: {
      id: 'a',
      name: 'Sales',
      cellData: {
        0: { 0: { v: 'Item', t: 1 }, 1: { v: 'Price', t: 1 } },
        1: { 0: { v: 'Pen', t: 1 }, 1: { v: 1.5, t: 2, s: 'money' } },
        2: { 0: { v: 'Book', t: 1 }, 1: { v: 12, t: 2, s: 'money' } },
        3: { 0: { v: 'Total', t: 1 }, 1: { f: '=SUM(B2:B3)', v: 13.5, t: 2, s: 'money' } },
        4: { 1: { f: '=B4/0', v: '#DIV/0!', t: 1 } },
        5: { 0: { v: 45658, t: 2, s: { n: { pattern: 'yyyy-mm-dd' } } } },
      },
      columnData: { 0: { w: 160 } },
      mergeData: [{ startRow: 7, endRow: 7, startColumn: 0, endColumn: 2 }],
      freeze: { xSplit: 0, ySplit: 1, startRow: 1, startColumn: 0 },
    },
    b: { id: 'b', name: 'Summary', cellData: { 0: { 0: { f: '=Sales!B4*2', v: 27, t: 2 } } } },
  },
};

test('writes formulas with their computed values, number formats and every sheet', async () => {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(await snapshotToXlsx(snapshot));
  assert.deepEqual(
    workbook.worksheets.map((ws) => ws.name),
    ['Sales', 'Summary'],
  );
  const sales = workbook.getWorksheet('Sales');
  assert.deepEqual(sales.getCell('B4').value, { formula: 'SUM(B2:B3)', result: 13.5 });
  assert.equal(sales.getCell('B4').numFmt, '#,##0.00');
  assert.equal(sales.getCell('B4').font.bold, true);
  assert.deepEqual(sales.getCell('B5').value, { formula: 'B4/0', result: { error: '#DIV/0!' } });
  assert.equal(sales.getCell('A6').numFmt, 'yyyy-mm-dd');
  assert.deepEqual(sales.model.merges, ['A8:C8']);
  assert.equal(sales.views[0].ySplit, 1);
  assert.deepEqual(workbook.getWorksheet('Summary').getCell('A1').value, { formula: 'Sales!B4*2', result: 27 });
});

test('reads the workbook it wrote back into the same cells', async () => {
  const back = await xlsxToSnapshot(await snapshotToXlsx(snapshot));
  const [sales, summary] = back.sheetOrder.map((id) => back.sheets[id]);
  assert.equal(sales.name, 'Sales');
  assert.deepEqual(sales.cellData[3][1], { f: '=SUM(B2:B3)', v: 13.5, t: 2, s: { bl: 1, n: { pattern: '#,##0.00' } } });
  assert.equal(sales.cellData[5][0].v, 45658);
  assert.equal(sales.columnData[0].w, 160);
  assert.deepEqual(sales.mergeData, [{ startRow: 7, startColumn: 0, endRow: 7, endColumn: 2 }]);
  assert.deepEqual(summary.cellData[0][0], { f: '=Sales!B4*2', v: 27, t: 2 });
});

test('names what is wrong with a snapshot that cannot be saved', () => {
  assert.equal(invalidSnapshot(snapshot), undefined);
  assert.deepEqual(invalidSnapshot({ sheetOrder: [], sheets: {} }), {
    field: 'snapshot.sheetOrder',
    reason: 'must list at least one sheet',
  });
  assert.equal(invalidSnapshot({ sheetOrder: ['x'], sheets: { x: { name: 'a/b' } } }).field, 'snapshot.sheets.x.name');
});

test('the server logs in with the session password only, and saves the workbook for a logged-in page', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'sheets-'));
  const workbookPath = join(folder, 'workbook.xlsx');
  const server = createSheetsServer({
    workbookPath,
    staticDir: folder,
    hashedPassword: createHash('sha256').update('s3cret').digest('hex'),
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    const form = (password) => ({
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password, base: '.' }),
    });
    assert.equal((await fetch(`${base}/healthz`)).status, 200);
    const refused = await fetch(`${base}/login`, form('guess'));
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('set-cookie'), null);
    const login = await fetch(`${base}/login`, form('s3cret'));
    assert.equal(login.status, 302);
    const cookie = login.headers.get('set-cookie').split(';')[0];
    assert.match(cookie, /^exam-sheets-session=/);

    const post = (body, headers = { cookie }) =>
      fetch(`${base}/api/workbook`, { method: 'POST', headers, body: JSON.stringify(body) });
    assert.equal((await post({ revision: 1, snapshot }, {})).status, 401);
    assert.equal((await fetch(`${base}/api/workbook`)).status, 401);
    const bad = await post({ revision: 1, snapshot: { sheetOrder: ['x'], sheets: {} } });
    assert.equal(bad.status, 400);
    assert.deepEqual((await bad.json()).error, { field: 'snapshot.sheets.x', reason: 'is missing' });
    await assert.rejects(stat(workbookPath), { code: 'ENOENT' });

    assert.equal((await post({ revision: 2, snapshot })).status, 200);
    const saved = await readFile(workbookPath);
    // A late save (an older revision, such as a page-hide beacon arriving last) leaves the newer file alone.
    assert.deepEqual(await (await post({ revision: 1, snapshot: { ...snapshot, sheetOrder: ['b'] } })).json(), {
      savedAt: (await (await fetch(`${base}/api/workbook`, { headers: { cookie } })).json()).savedAt,
      ignored: true,
    });
    assert.deepEqual(await readFile(workbookPath), saved);
    const loaded = await (await fetch(`${base}/api/workbook`, { headers: { cookie } })).json();
    assert.equal(loaded.exists, true);
    assert.deepEqual(loaded.snapshot.sheets['sheet-1'].cellData[3][1].f, '=SUM(B2:B3)');
  } finally {
    server.close();
  }
});
