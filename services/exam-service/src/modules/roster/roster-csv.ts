import { candidateKey } from '@exam/domain/candidate-key';
import { AppError, ErrorCode, type Issue } from '@exam/domain/errors';
import { RosterEntryInputSchema, RosterMessages } from '@exam/domain/roster';
import { parse } from 'csv-parse/sync';

export type RosterRow = { name: string; candidateId: string; email: string | null };

/** Header cells as a spreadsheet may spell them: case, spaces, dashes and underscores do not matter. */
const COLUMN_ALIASES: Record<string, keyof RosterRow> = {
  name: 'name',
  fullname: 'name',
  candidateid: 'candidateId',
  studentid: 'candidateId',
  email: 'email',
  emailaddress: 'email',
};
const normaliseHeader = (cell: string) => cell.toLowerCase().replace(/[\s_\-.]/g, '');

const rowIssue = (row: number, field: string, message: string): Issue => ({
  path: `rows.${row}.${field}`,
  message: `Row ${row}: ${message}`,
});

/**
 * Reads a roster CSV (RFC 4180 through csv-parse; comma or semicolon separated, a BOM allowed): a header
 * naming the columns name, candidate id and (optionally) email in any order and case, then one candidate
 * per line. Every bad row is reported at once, numbered as the line in the file (the header is row 1),
 * and nothing is returned unless every row is good: an import is all or nothing.
 */
export function parseRosterCsv(text: string): RosterRow[] {
  const invalid = (issues: Issue[], message = 'The roster has errors') =>
    new AppError(ErrorCode.VALIDATION, message, issues);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      delimiter: [',', ';'],
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (err) {
    const line = (err as { lines?: number }).lines;
    const message = `The CSV cannot be read${line ? ` at line ${line}` : ''}: ${(err as Error).message}`;
    throw invalid([{ path: 'csv', message }], message);
  }
  const [header, ...body] = records;
  const columns = header?.record.map((cell) => COLUMN_ALIASES[normaliseHeader(cell)]);
  if (!columns?.includes('name') || !columns.includes('candidateId')) {
    throw invalid([{ path: 'csv', message: RosterMessages.csvHeader }], RosterMessages.csvHeader);
  }
  if (body.length === 0) throw invalid([{ path: 'csv', message: RosterMessages.csvEmpty }], RosterMessages.csvEmpty);

  const issues: Issue[] = [];
  const rows: RosterRow[] = [];
  const seen = new Map<string, number>();
  for (const { record, info } of body) {
    const line = info.lines;
    const cells: Record<string, string> = {};
    columns.forEach((column, i) => {
      if (column) cells[column] = record[i] ?? '';
    });
    const parsed = RosterEntryInputSchema.safeParse(cells);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        issues.push(rowIssue(line, String(issue.path[0] ?? 'row'), issue.message));
      continue;
    }
    const key = candidateKey(parsed.data.candidateId);
    const first = seen.get(key);
    if (first !== undefined) {
      issues.push(rowIssue(line, 'candidateId', `candidate ID ${parsed.data.candidateId} is also on row ${first}`));
      continue;
    }
    seen.set(key, line);
    rows.push({ name: parsed.data.name, candidateId: parsed.data.candidateId, email: parsed.data.email });
  }
  if (issues.length)
    throw invalid(
      issues,
      `The roster has errors in ${new Set(issues.map((i) => i.path.split('.')[1])).size} row(s); nothing was imported`,
    );
  return rows;
}
