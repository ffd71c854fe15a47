import { describe, expect, it } from 'vitest';
import type { StoredGrade } from '../../scoring/score.ts';
import { gradesInExamOrder, questionHeaders } from './question-columns.ts';
import { gradebookCsv, resultsCsv, withBom } from './results-csv.ts';

const grade = (points: number | null): StoredGrade => ({
  answer: 'x',
  points,
  autoScored: false,
  feedback: '',
  criteria: [],
  manual: points !== null,
});

describe('results CSV', () => {
  it('writes points to the hundredth, blank while pending, and the percentage to one decimal', () => {
    const csv = resultsCsv(
      [
        {
          id: 'r1',
          userName: 'Ada',
          studentId: 'S1',
          startedAt: new Date('2030-01-01T10:00:00Z'),
          completedAt: new Date('2030-01-01T10:01:00Z'),
          timeSpent: 60,
          grades: [grade(2 / 3), grade(null), grade(1.5)],
          score: 2.17,
          maxScore: 6,
          status: 'pending',
          focusLost: 0,
          blockedPastes: 0,
          fullscreenExits: 0,
          process: null,
        },
      ],
      ['Q1 A', 'Q2 B', 'Q3 C'],
    );
    // Without a process record (a result made before operations were recorded) its columns are blank.
    expect(csv.split('\r\n')[1]).toBe(
      'Ada,S1,2030-01-01T10:00:00.000Z,2030-01-01T10:01:00.000Z,60,0.67,,1.5,2.17,6,36.2,pending,0,0,0,,,,,',
    );
  });

  it('writes the gradebook variant: identity, points under titles, total blank while a grader decides', () => {
    const base = { completedAt: new Date('2030-01-01T10:01:00Z'), maxScore: 6 };
    const headers = questionHeaders([
      { id: 'a', title: 'Upload your notebook', points: 4 },
      { id: 'b', title: 'Define entropy', points: 2 },
    ]);
    const csv = gradebookCsv(
      [
        { ...base, userName: 'Ada', studentId: 'S1', score: 2 / 3, status: 'graded', grades: [grade(2 / 3), grade(0)] },
        { ...base, userName: '@Bob', studentId: 'S2', score: 1, status: 'pending', grades: [grade(null), grade(1)] },
      ],
      headers,
    );
    expect(csv).toBe(
      'Name,Candidate ID,Q1 Upload your notebook (4 pts),Q2 Define entropy (2 pts),Total,Max,Percentage,Status,Submitted at\r\n' +
        'Ada,S1,0.67,0,0.67,6,11.1,graded,2030-01-01T10:01:00.000Z\r\n' +
        "'@Bob,S2,,1,,6,,pending,2030-01-01T10:01:00.000Z\r\n",
    );
  });

  it("adds the roster's e-mail column when the e-mails are known, blank for a candidate without one", () => {
    const csv = gradebookCsv(
      [
        {
          userName: 'Ada',
          studentId: 'S1',
          completedAt: new Date(0),
          score: 1,
          maxScore: 1,
          status: 'graded',
          grades: [],
        },
        {
          userName: 'Bo',
          studentId: 'S2',
          completedAt: new Date(0),
          score: 1,
          maxScore: 1,
          status: 'graded',
          grades: [],
        },
      ],
      [],
      (id) => (id === 'S1' ? 'ada@example.org' : null),
    );
    const [header, ada, bo] = csv.split('\r\n');
    expect(header).toBe('Name,Candidate ID,Email,Total,Max,Percentage,Status,Submitted at');
    expect(ada).toMatch(/^Ada,S1,ada@example.org,1,1,100,graded,/);
    expect(bo).toMatch(/^Bo,S2,,1,/);
  });
});

describe('question columns', () => {
  it('head each column by number, title and worth, unique when titles repeat, pools worth their points per draw', () => {
    expect(
      questionHeaders(
        [
          { id: 'a', title: 'Upload your notebook', points: 10 },
          { id: 'b', title: 'Same', points: 1 },
          { id: 'c', title: 'Same', points: 2.5, poolId: 'p' },
          { id: 'd', title: '', points: 2 },
          { id: 'e', title: 'Line\nbreak   and  spaces', points: 2 },
        ],
        [{ id: 'p', points: 3 }],
      ),
    ).toEqual([
      'Q1 Upload your notebook (10 pts)',
      'Q2 Same (1 pt)',
      'Q3 Same (3 pts)',
      'Q4 (2 pts)',
      'Q5 Line break and spaces (2 pts)',
    ]);
  });

  it('cut a long title so a header stays readable', () => {
    const [header] = questionHeaders([{ id: 'a', title: 'x'.repeat(300), points: 1 }]);
    expect(header!.length).toBeLessThan(100);
    expect(header).toMatch(/^Q1 x+… \(1 pt\)$/);
  });

  it("put a shuffled candidate's grades under the exam's questions by id, blank for a question not drawn", () => {
    const exam = [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }];
    expect(gradesInExamOrder(exam, ['c', 'a', 'd'], ['gc', 'ga', 'gd'])).toEqual(['ga', undefined, 'gc', 'gd']);
  });

  it('keep a title a spreadsheet would run as a formula inert, and quote one with a comma', () => {
    const headers = questionHeaders([
      { id: 'a', title: 'x', points: 1 },
      { id: 'b', title: 'Sum, then carry', points: 1 },
    ]);
    // The number leads every header, so no title can start one with =, +, - or @.
    const evil = ['=HYPERLINK("http://evil","click")', ...headers];
    const csv = gradebookCsv(
      [
        {
          userName: '=cmd|calc',
          studentId: '+1',
          completedAt: new Date(0),
          score: 0,
          maxScore: 2,
          status: 'graded',
          grades: [],
        },
      ],
      evil,
    );
    const [header, row] = csv.split('\r\n');
    expect(header).toBe(
      `Name,Candidate ID,"'=HYPERLINK(""http://evil"",""click"")",Q1 x (1 pt),"Q2 Sum, then carry (1 pt)",Total,Max,Percentage,Status,Submitted at`,
    );
    expect(row!.startsWith("'=cmd|calc,'+1,")).toBe(true);
  });

  it('keep accents as UTF-8, with the byte-order mark Excel needs only when asked for', () => {
    const headers = questionHeaders([{ id: 'a', title: 'Óptica y ñandúes', points: 1 }]);
    const csv = gradebookCsv(
      [
        {
          userName: 'José Núñez',
          studentId: 'Ü1',
          completedAt: new Date(0),
          score: 1,
          maxScore: 1,
          status: 'graded',
          grades: [grade(1)],
        },
      ],
      headers,
    );
    expect(csv).toContain('Q1 Óptica y ñandúes (1 pt)');
    expect(csv).toContain('José Núñez,Ü1,1,');
    expect(csv.charCodeAt(0)).toBe('N'.charCodeAt(0));
    const excel = Buffer.from(withBom(csv), 'utf8');
    expect([...excel.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(excel.subarray(3).toString('utf8')).toBe(csv);
  });
});
