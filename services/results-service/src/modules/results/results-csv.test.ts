import { describe, expect, it } from 'vitest';
import type { StoredGrade } from '../../scoring/score.ts';
import { gradebookCsv, resultsCsv } from './results-csv.ts';

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
      3,
    );
    // Without a process record (a result made before operations were recorded) its columns are blank.
    expect(csv.split('\r\n')[1]).toBe(
      'Ada,S1,2030-01-01T10:00:00.000Z,2030-01-01T10:01:00.000Z,60,0.67,,1.5,2.17,6,36.2,pending,0,0,0,,,,,',
    );
  });

  it('writes the gradebook variant: points and maximum per candidate, blank points while a grader decides', () => {
    const base = {
      completedAt: new Date('2030-01-01T10:01:00Z'),
      focusLost: 3,
      blockedPastes: 0,
      fullscreenExits: 0,
    };
    const csv = gradebookCsv([
      { ...base, userName: 'Ada', studentId: 'S1', score: 2 / 3, maxScore: 6, status: 'graded' },
      { ...base, userName: '@Bob', studentId: 'S2', score: 1, maxScore: 6, status: 'pending' },
    ]);
    expect(csv).toBe(
      'name,studentId,points,maxPoints,percentage,status,completedAt\r\n' +
        'Ada,S1,0.67,6,11.1,graded,2030-01-01T10:01:00.000Z\r\n' +
        "'@Bob,S2,,6,,pending,2030-01-01T10:01:00.000Z\r\n",
    );
  });
});
