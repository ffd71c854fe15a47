/** A workbook as the grader's grid shows it: each sheet's used range, each cell's shown value and formula. */
export type WorkbookCell = { address: string; value: string; formula: string | null };
export type WorkbookSheet = { name: string; rows: number; columns: number; cells: Map<string, WorkbookCell> };

/** Rows and columns the grid shows at most; a larger sheet says it is cut. */
export const GRID_MAX_ROWS = 500;
export const GRID_MAX_COLUMNS = 52;

/** A column's letters: 1 → A, 27 → AA. */
export function columnName(n: number): string {
  let name = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) name = String.fromCharCode(65 + ((c - 1) % 26)) + name;
  return name;
}

type CellValue = unknown;

/** What a cell shows: a formula's computed result, a rich text's text, a date as ISO, an error's code. */
function shown(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().replace(/T00:00:00\.000Z$/, '');
  if (typeof value !== 'object') return String(value);
  const v = value as Record<string, unknown>;
  if ('result' in v || 'formula' in v || 'sharedFormula' in v) return shown(v.result);
  if (Array.isArray(v.richText)) return (v.richText as Array<{ text: string }>).map((part) => part.text).join('');
  if (typeof v.text === 'string') return v.text;
  if (typeof v.error === 'string') return v.error;
  return '';
}

/**
 * Reads an .xlsx with exceljs, loaded only here (its own chunk, fetched when a grader opens a workbook): exceljs
 * reads the formulas and the values saved with them, the same library the excel workspace writes with.
 */
export async function readWorkbook(bytes: Uint8Array): Promise<WorkbookSheet[]> {
  const mod = await import('exceljs');
  const ExcelJS = (mod as unknown as { default?: typeof mod }).default ?? mod;
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  return workbook.worksheets.map((sheet) => {
    const cells = new Map<string, WorkbookCell>();
    let rows = 0;
    let columns = 0;
    sheet.eachRow({ includeEmpty: false }, (row, r) => {
      row.eachCell({ includeEmpty: false }, (cell, c) => {
        const formula = cell.formula ? `=${cell.formula}` : null;
        const value = shown(cell.value);
        if (value === '' && !formula) return;
        rows = Math.max(rows, r);
        columns = Math.max(columns, c);
        cells.set(cell.address, { address: cell.address, value, formula });
      });
    });
    return { name: sheet.name, rows, columns, cells };
  });
}
