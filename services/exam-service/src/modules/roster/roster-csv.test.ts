import { AppError } from '@exam/domain/errors';
import { RosterMessages } from '@exam/domain/roster';
import { describe, expect, it } from 'vitest';
import { parseRosterCsv } from './roster-csv.ts';

const issuesOf = (csv: string) => {
  try {
    parseRosterCsv(csv);
  } catch (err) {
    if (err instanceof AppError) return err.issues;
    throw err;
  }
  throw new Error('expected the CSV to be refused');
};

describe('roster CSV', () => {
  it('reads the columns in any order and case, with quoted cells and a BOM', () => {
    const csv = '\uFEFFE-mail,Candidate ID,NAME\r\nada@example.test,S-1,"Lovelace, Ada"\r\n,S-2,Grace Hopper\r\n\r\n';
    expect(parseRosterCsv(csv)).toEqual([
      { name: 'Lovelace, Ada', candidateId: 'S-1', email: 'ada@example.test' },
      { name: 'Grace Hopper', candidateId: 'S-2', email: null },
    ]);
  });

  it('accepts semicolon-separated files and a missing email column', () => {
    expect(parseRosterCsv('candidate_id;name\nS-9;Alan Turing')).toEqual([
      { name: 'Alan Turing', candidateId: 'S-9', email: null },
    ]);
  });

  it('lists every bad row with its line number and field', () => {
    const csv = [
      'name,candidate id,email',
      'Ada,S-1,ada@example.test',
      'Grace,,grace@example.test',
      ',S-3,not-an-email',
    ].join('\n');
    expect(issuesOf(csv)).toEqual([
      { path: 'rows.3.candidateId', message: `Row 3: ${RosterMessages.candidateIdRequired}` },
      { path: 'rows.4.name', message: `Row 4: ${RosterMessages.nameRequired}` },
      { path: 'rows.4.email', message: `Row 4: ${RosterMessages.badEmail}` },
    ]);
  });

  it('refuses a candidate ID twice in one file, compared as the platform compares IDs', () => {
    const issues = issuesOf('name,candidate id\nAda,S-1\nAda again, s-1 ');
    expect(issues).toEqual([{ path: 'rows.3.candidateId', message: 'Row 3: candidate ID s-1 is also on row 2' }]);
  });

  it('refuses a file without the header, or without rows', () => {
    expect(issuesOf('Ada,S-1,ada@example.test')).toEqual([{ path: 'csv', message: RosterMessages.csvHeader }]);
    expect(issuesOf('name,candidate id,email\n')).toEqual([{ path: 'csv', message: RosterMessages.csvEmpty }]);
  });

  it('refuses a malformed CSV with the line where reading stopped', () => {
    const issues = issuesOf('name,candidate id\n"Ada,S-1\n');
    expect(issues?.[0]?.path).toBe('csv');
    expect(issues?.[0]?.message).toMatch(/cannot be read/);
  });
});
