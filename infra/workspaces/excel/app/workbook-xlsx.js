// Univer's workbook snapshot (IWorkbookData, @univerjs/core) <-> .xlsx through exceljs. Univer's open-source packages
// have no xlsx exchange, so this is the one place that decides what survives a save: values, formulas with their
// computed results, number formats, fonts, fills, alignment, wrapping, borders, merges, column widths, row heights,
// hidden rows, columns and sheets, frozen panes and sheet order (infra/workspaces/README.md lists what does not).
import ExcelJS from 'exceljs';

/** Univer's enums (core/types/enum), by value. */
const CellValueType = { STRING: 1, NUMBER: 2, BOOLEAN: 3, FORCE_STRING: 4 };
const HORIZONTAL = { 1: 'left', 2: 'center', 3: 'right', 4: 'justify', 5: 'justify', 6: 'distributed' };
const VERTICAL = { 1: 'top', 2: 'middle', 3: 'bottom' };
const BORDER = [
  null,
  'thin',
  'hair',
  'dotted',
  'dashed',
  'dashDot',
  'dashDotDot',
  'double',
  'medium',
  'mediumDashed',
  'mediumDashDot',
  'mediumDashDotDot',
  'slantDashDot',
  'thick',
];
const SIDES = { t: 'top', b: 'bottom', l: 'left', r: 'right' };
const ERROR = /^#(DIV\/0!|N\/A|NAME\?|NULL!|NUM!|REF!|VALUE!|SPILL!|CALC!)$/;
/** Excel's day 0 (1899-12-30, which absorbs Lotus's 1900 leap-year bug) in ms. */
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;
/** Univer's pixels <-> Excel's column characters (Calibri 11: 7 px a character plus 5 px padding) and points. */
const pxToChars = (px) => Math.max(0, (px - 5) / 7);
const charsToPx = (chars) => Math.round(chars * 7 + 5);

export const DEFAULT_COLUMN_WIDTH = 88;
export const DEFAULT_ROW_HEIGHT = 24;

/** A new workbook with one empty sheet. */
export function emptySnapshot() {
  return {
    id: 'workbook',
    name: 'workbook',
    appVersion: '',
    locale: 'enUS',
    styles: {},
    sheetOrder: ['sheet-1'],
    sheets: { 'sheet-1': sheetShell('sheet-1', 'Sheet1') },
    resources: [],
  };
}

function sheetShell(id, name) {
  return {
    id,
    name,
    rowCount: 1000,
    columnCount: 26,
    defaultColumnWidth: DEFAULT_COLUMN_WIDTH,
    defaultRowHeight: DEFAULT_ROW_HEIGHT,
    cellData: {},
    rowData: {},
    columnData: {},
    mergeData: [],
  };
}

/** Why a posted snapshot cannot be saved, as { field, reason }, or undefined when it can. */
export function invalidSnapshot(snapshot) {
  if (!snapshot || typeof snapshot !== 'object') return { field: 'snapshot', reason: 'must be an object' };
  if (!Array.isArray(snapshot.sheetOrder) || snapshot.sheetOrder.length === 0)
    return { field: 'snapshot.sheetOrder', reason: 'must list at least one sheet' };
  if (!snapshot.sheets || typeof snapshot.sheets !== 'object')
    return { field: 'snapshot.sheets', reason: 'must be an object' };
  const names = new Set();
  for (const id of snapshot.sheetOrder) {
    const sheet = snapshot.sheets[id];
    if (!sheet || typeof sheet !== 'object') return { field: `snapshot.sheets.${id}`, reason: 'is missing' };
    const name = String(sheet.name ?? '');
    if (!name || name.length > 31 || /[\\/?*[\]:]/.test(name))
      return { field: `snapshot.sheets.${id}.name`, reason: 'must be 1-31 characters without \\ / ? * [ ] :' };
    if (names.has(name.toLowerCase())) return { field: `snapshot.sheets.${id}.name`, reason: 'is used twice' };
    names.add(name.toLowerCase());
    if (sheet.cellData !== undefined && (typeof sheet.cellData !== 'object' || sheet.cellData === null))
      return { field: `snapshot.sheets.${id}.cellData`, reason: 'must be an object' };
  }
  return undefined;
}

const argb = (rgb) => {
  const hex = /^#?([0-9a-f]{6})$/i.exec(String(rgb ?? ''))?.[1];
  return hex ? { argb: `FF${hex.toUpperCase()}` } : undefined;
};
const rgbOf = (color) => (typeof color?.argb === 'string' ? { rgb: `#${color.argb.slice(-6)}` } : undefined);

/** A cell's plain text when it holds a rich-text document instead of a value. */
function richText(p) {
  const stream = p?.body?.dataStream;
  return typeof stream === 'string' ? stream.replace(/\r\n$/, '').replace(/\r/g, '\n') : undefined;
}

function resultOf(v, t) {
  if (v === null || v === undefined || v === '') return undefined;
  if (typeof v === 'string' && ERROR.test(v)) return { error: v };
  if (t === CellValueType.BOOLEAN) return v === true || v === 1 || String(v).toUpperCase() === 'TRUE';
  if (t === CellValueType.NUMBER || typeof v === 'number') return Number(v);
  return String(v);
}

function valueOf(cell) {
  const f = typeof cell.f === 'string' && cell.f.startsWith('=') ? cell.f.slice(1) : undefined;
  if (f) {
    const result = resultOf(cell.v, cell.t);
    return result === undefined ? { formula: f } : { formula: f, result };
  }
  const text = cell.v === undefined || cell.v === null ? richText(cell.p) : undefined;
  if (text !== undefined) return text;
  if (cell.t === CellValueType.FORCE_STRING || cell.t === CellValueType.STRING) return resultOf(String(cell.v ?? ''));
  return resultOf(cell.v, cell.t) ?? null;
}

function applyStyle(target, style) {
  if (!style) return;
  const font = {};
  if (style.ff) font.name = style.ff;
  if (style.fs) font.size = style.fs;
  if (style.bl) font.bold = true;
  if (style.it) font.italic = true;
  if (style.ul?.s) font.underline = true;
  if (style.st?.s) font.strike = true;
  if (argb(style.cl?.rgb)) font.color = argb(style.cl.rgb);
  if (Object.keys(font).length) target.font = font;
  if (argb(style.bg?.rgb)) target.fill = { type: 'pattern', pattern: 'solid', fgColor: argb(style.bg.rgb) };
  const alignment = {};
  if (HORIZONTAL[style.ht]) alignment.horizontal = HORIZONTAL[style.ht];
  if (VERTICAL[style.vt]) alignment.vertical = VERTICAL[style.vt];
  if (style.tb === 3) alignment.wrapText = true;
  if (Object.keys(alignment).length) target.alignment = alignment;
  if (style.n?.pattern) target.numFmt = style.n.pattern;
  const border = {};
  for (const [side, name] of Object.entries(SIDES)) {
    const line = style.bd?.[side];
    if (line && BORDER[line.s]) border[name] = { style: BORDER[line.s], color: argb(line.cl?.rgb) };
  }
  if (Object.keys(border).length) target.border = border;
}

function styleOf(cell) {
  const style = {};
  const font = cell.font ?? {};
  if (font.name) style.ff = font.name;
  if (font.size) style.fs = font.size;
  if (font.bold) style.bl = 1;
  if (font.italic) style.it = 1;
  if (font.underline) style.ul = { s: 1 };
  if (font.strike) style.st = { s: 1 };
  if (rgbOf(font.color)) style.cl = rgbOf(font.color);
  const fill = cell.fill;
  if (fill?.type === 'pattern' && fill.pattern === 'solid' && rgbOf(fill.fgColor)) style.bg = rgbOf(fill.fgColor);
  const alignment = cell.alignment ?? {};
  const ht = Object.entries(HORIZONTAL).find(([, name]) => name === alignment.horizontal)?.[0];
  if (ht) style.ht = Number(ht);
  const vt = Object.entries(VERTICAL).find(([, name]) => name === alignment.vertical)?.[0];
  if (vt) style.vt = Number(vt);
  if (alignment.wrapText) style.tb = 3;
  if (cell.numFmt && cell.numFmt !== 'General') style.n = { pattern: cell.numFmt };
  const bd = {};
  for (const [side, name] of Object.entries(SIDES)) {
    const line = cell.border?.[name];
    const s = line?.style ? BORDER.indexOf(line.style) : -1;
    if (s > 0) bd[side] = { s, cl: rgbOf(line.color) ?? { rgb: '#000000' } };
  }
  if (Object.keys(bd).length) style.bd = bd;
  return Object.keys(style).length ? style : undefined;
}

/** Univer's snapshot as an .xlsx file's bytes. Each formula cell keeps its formula and the value Univer computed. */
export async function snapshotToXlsx(snapshot) {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'exam workspace (Univer)';
  workbook.calcProperties.fullCalcOnLoad = false;
  const styles = snapshot.styles ?? {};
  for (const id of snapshot.sheetOrder) {
    const sheet = snapshot.sheets[id];
    const tab = argb(sheet.tabColor);
    const ws = workbook.addWorksheet(sheet.name, {
      state: sheet.hidden ? 'hidden' : 'visible',
      ...(tab ? { properties: { tabColor: tab } } : {}),
    });
    const xSplit = sheet.freeze?.xSplit ?? 0;
    const ySplit = sheet.freeze?.ySplit ?? 0;
    if (xSplit > 0 || ySplit > 0) ws.views = [{ state: 'frozen', xSplit, ySplit }];
    for (const [r, row] of Object.entries(sheet.cellData ?? {})) {
      for (const [c, cell] of Object.entries(row ?? {})) {
        if (!cell) continue;
        const target = ws.getCell(Number(r) + 1, Number(c) + 1);
        const value = valueOf(cell);
        if (value !== null && value !== undefined) target.value = value;
        applyStyle(target, typeof cell.s === 'string' ? styles[cell.s] : cell.s);
      }
    }
    for (const [c, column] of Object.entries(sheet.columnData ?? {})) {
      const target = ws.getColumn(Number(c) + 1);
      if (column?.w && column.w !== (sheet.defaultColumnWidth ?? DEFAULT_COLUMN_WIDTH))
        target.width = pxToChars(column.w);
      if (column?.hd) target.hidden = true;
    }
    for (const [r, row] of Object.entries(sheet.rowData ?? {})) {
      const target = ws.getRow(Number(r) + 1);
      if (row?.h && row.h !== (sheet.defaultRowHeight ?? DEFAULT_ROW_HEIGHT)) target.height = row.h * 0.75;
      if (row?.hd) target.hidden = true;
    }
    // After the values: a merge keeps only its top-left cell's value, as in Excel.
    for (const m of sheet.mergeData ?? [])
      ws.mergeCells(m.startRow + 1, m.startColumn + 1, m.endRow + 1, m.endColumn + 1);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function cellOf(cell) {
  const out = {};
  const value = cell.value;
  if (cell.type === ExcelJS.ValueType.Formula) {
    out.f = `=${cell.formula}`;
    Object.assign(out, plain(cell.result));
  } else if (cell.type !== ExcelJS.ValueType.Merge) {
    Object.assign(out, plain(value));
  }
  const style = styleOf(cell);
  if (style) out.s = style;
  return out;
}

/** A value as Univer's { v, t }: dates become Excel serial numbers (their number format shows them as dates). */
function plain(value) {
  if (value === null || value === undefined) return {};
  if (value instanceof Date) return { v: (value.getTime() - EXCEL_EPOCH) / DAY_MS, t: CellValueType.NUMBER };
  if (typeof value === 'number') return { v: value, t: CellValueType.NUMBER };
  if (typeof value === 'boolean') return { v: value ? 1 : 0, t: CellValueType.BOOLEAN };
  if (typeof value === 'string') return { v: value, t: CellValueType.STRING };
  if (value.error) return { v: value.error, t: CellValueType.STRING };
  if (Array.isArray(value.richText)) return { v: value.richText.map((run) => run.text).join(''), t: 1 };
  if (value.text !== undefined) return plain(typeof value.text === 'string' ? value.text : value.text?.richText);
  if (value.result !== undefined) return plain(value.result);
  return {};
}

/** An .xlsx file as Univer's snapshot. */
export async function xlsxToSnapshot(bytes) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes);
  const snapshot = { ...emptySnapshot(), sheetOrder: [], sheets: {} };
  workbook.eachSheet((ws, n) => {
    const id = `sheet-${n}`;
    const sheet = sheetShell(id, ws.name);
    let lastRow = 0;
    let lastColumn = 0;
    ws.eachRow({ includeEmpty: false }, (row, r) => {
      row.eachCell({ includeEmpty: false }, (cell, c) => {
        const data = cellOf(cell);
        if (!Object.keys(data).length) return;
        (sheet.cellData[r - 1] ??= {})[c - 1] = data;
        lastRow = Math.max(lastRow, r);
        lastColumn = Math.max(lastColumn, c);
      });
      if (row.height) sheet.rowData[r - 1] = { ...sheet.rowData[r - 1], h: Math.round(row.height / 0.75) };
      if (row.hidden) sheet.rowData[r - 1] = { ...sheet.rowData[r - 1], hd: 1 };
    });
    (ws.columns ?? []).forEach((column, i) => {
      if (column.width) sheet.columnData[i] = { w: charsToPx(column.width) };
      if (column.hidden) sheet.columnData[i] = { ...sheet.columnData[i], hd: 1 };
    });
    for (const range of ws.model.merges ?? []) {
      const [from, to = from] = range.split(':');
      const a = ws.getCell(from);
      const b = ws.getCell(to);
      sheet.mergeData.push({ startRow: a.row - 1, startColumn: a.col - 1, endRow: b.row - 1, endColumn: b.col - 1 });
    }
    const frozen = (ws.views ?? []).find((view) => view.state === 'frozen');
    if (frozen && (frozen.xSplit || frozen.ySplit)) {
      const xSplit = frozen.xSplit ?? 0;
      const ySplit = frozen.ySplit ?? 0;
      sheet.freeze = { xSplit, ySplit, startRow: ySplit, startColumn: xSplit };
    }
    if (ws.state && ws.state !== 'visible') sheet.hidden = 1;
    if (rgbOf(ws.properties?.tabColor)) sheet.tabColor = rgbOf(ws.properties.tabColor).rgb;
    sheet.rowCount = Math.max(1000, lastRow + 100);
    sheet.columnCount = Math.max(26, lastColumn + 10);
    snapshot.sheetOrder.push(id);
    snapshot.sheets[id] = sheet;
  });
  if (!snapshot.sheetOrder.length) return emptySnapshot();
  return snapshot;
}
