import { describe, expect, it } from 'vitest';
import { candidateReport, outputMatches, repositoryRoots, RunRepositorySchema, type RunReport } from './coding.ts';
import { QuestionSchema, toPublicQuestion } from './question.ts';
import { scoreResult } from './grading.ts';

const codingQuestion = (tests: Array<Record<string, unknown>>) =>
  QuestionSchema.parse({ id: 'q1', type: 'coding', title: 'Sum', language: 'python', points: 99, tests });

describe('coding questions', () => {
  it('are worth the sum of their tests and show a candidate only the visible tests', () => {
    const q = codingQuestion([
      { id: 't1', stdin: '1 2', expected: '3', points: 2, visible: true },
      { id: 't2', stdin: 'SECRET-in', expected: 'SECRET-out', points: 3 },
    ]);
    expect(q.points).toBe(5);
    const view = toPublicQuestion(q);
    expect(view.visibleTests).toEqual([{ id: 't1', name: '', stdin: '1 2', args: [], expected: '3', points: 2 }]);
    expect(view.hiddenTestCount).toBe(1);
    expect(JSON.stringify(view)).not.toContain('SECRET');
  });

  it('refuse tests without a language and duplicate test ids', () => {
    const noLanguage = QuestionSchema.safeParse({ id: 'q', type: 'coding', title: 'x', tests: [{ id: 't' }] });
    expect(noLanguage.error?.issues.map((i) => i.path.join('.'))).toEqual(['language']);
    const twice = QuestionSchema.safeParse({
      id: 'q',
      type: 'coding',
      title: 'x',
      language: 'python',
      tests: [{ id: 't' }, { id: 't' }],
    });
    expect(twice.error?.issues.map((i) => i.path.join('.'))).toEqual(['tests.1.id']);
  });

  it('score the passed tests once the run is done, and wait for it before', () => {
    const q = codingQuestion([
      { id: 't1', points: 2 },
      { id: 't2', points: 3 },
    ]);
    const verdicts = [
      { outcome: 'passed', maxPoints: 2 },
      { outcome: 'timeout', maxPoints: 3 },
    ];
    const done = scoreResult([q], ['print(1)'], new Map(), {
      released: false,
      tests: new Map([[0, { state: 'done', verdicts }]]),
    });
    expect(done.score).toBe(2);
    expect(done.status).toBe('graded');
    const running = scoreResult([q], ['print(1)'], new Map(), {
      released: false,
      tests: new Map([[0, { state: 'running', verdicts: [] }]]),
    });
    expect(running.status).toBe('pending');
    const overridden = scoreResult([q], ['print(1)'], new Map([[0, { points: 4, feedback: 'ok', criteria: [] }]]), {
      released: false,
      tests: new Map([[0, { state: 'done', verdicts }]]),
    });
    expect(overridden.score).toBe(4);
  });
});

describe('outputMatches', () => {
  it('compares exactly, trimmed, numerically and unordered', () => {
    expect(outputMatches('3\n', '3\n', 'exact')).toBe(true);
    expect(outputMatches('3\n', '3', 'exact')).toBe(false);
    expect(outputMatches('a\nb\n', 'a  \nb\n\n\n', 'trimmed')).toBe(true);
    expect(outputMatches('a\nb', 'a\nc', 'trimmed')).toBe(false);
    expect(outputMatches('pi 3.14159', 'pi 3.1416', 'numeric', 1e-3)).toBe(true);
    expect(outputMatches('pi 3.14159', 'pi 3.2', 'numeric', 1e-3)).toBe(false);
    expect(outputMatches('pi 3', 'tau 3', 'numeric', 1)).toBe(false);
    expect(outputMatches('1\tann\n2\tbob', '2\tbob\n1\tann\n', 'unordered')).toBe(true);
    expect(outputMatches('1\tann\n1\tann', '1\tann', 'unordered')).toBe(false);
  });
});

describe('candidateReport', () => {
  it('keeps the outcome of hidden tests and drops their data', () => {
    const report: RunReport = {
      runId: 'r',
      state: 'done',
      points: 1,
      maxPoints: 2,
      queuedAt: '2026-11-25T00:00:00Z',
      finishedAt: '2026-11-25T00:00:01Z',
      verdicts: [
        {
          testId: 'a',
          name: '',
          visible: true,
          outcome: 'failed',
          points: 0,
          maxPoints: 1,
          timeMs: 5,
          exitCode: 0,
          expected: '3',
          actual: '4',
        },
        {
          testId: 'b',
          name: '',
          visible: false,
          outcome: 'failed',
          points: 0,
          maxPoints: 1,
          timeMs: 5,
          exitCode: 0,
          expected: 'SECRET',
          actual: 'x',
          stdin: 'SECRET',
          stderr: 'e',
        },
      ],
    };
    const seen = candidateReport(report);
    expect(seen.verdicts[0]).toEqual(report.verdicts[0]);
    expect(seen.verdicts[1]).toEqual({
      testId: 'b',
      name: '',
      visible: false,
      outcome: 'failed',
      points: 0,
      maxPoints: 1,
      timeMs: 5,
      exitCode: 0,
    });
  });
});

describe("an agentic task's repository in the workspace and the runner", () => {
  const task = (id: string) => ({ id, repository: { files: [], hiddenFiles: [] } });
  it("opens at the root when one question has a repository, under q<N>/ (the exam's numbering) when several", () => {
    expect(repositoryRoots([{ id: 'a' }, task('b')])).toEqual({ b: '' });
    expect(repositoryRoots([task('a'), { id: 'b' }, task('c')])).toEqual({ a: 'q1/', c: 'q3/' });
  });

  it("refuses a run's repository with paths outside it, kept for the runner, repeated, or past the caps", () => {
    const paths = (files: Array<{ path: string; content: string }>) =>
      (RunRepositorySchema.safeParse(files).error?.issues ?? []).map((i) => i.path.join('.'));
    expect(paths([{ path: 'src/a.py', content: '' }])).toEqual([]);
    expect(paths([{ path: '../a.py', content: '' }])).toEqual(['0.path']);
    expect(paths([{ path: '/etc/passwd', content: '' }])).toEqual(['0.path']);
    expect(paths([{ path: 'setup.sql', content: '' }])).toEqual(['0.path']);
    expect(
      paths([
        { path: 'a', content: '' },
        { path: 'a', content: '' },
      ]),
    ).toEqual(['1.path']);
    const big = Array.from({ length: 21 }, (_, i) => ({ path: `f${i}`, content: 'x'.repeat(200_000) }));
    expect(paths(big)).toEqual(['']);
  });
});
