import { describe, expect, it } from 'vitest';
import {
  allowedLanguages,
  candidateReport,
  outputMatches,
  questionSlug,
  questionWorkspaceFiles,
  repositoryRoots,
  RunRepositorySchema,
  starterCodeFor,
  withWorkspaceFiles,
  workspaceFileFor,
  type RunReport,
} from './coding.ts';
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

describe("each coding question's file in the workspace", () => {
  const exam = [
    { id: 'a', type: 'mcq', title: 'Pick one' },
    { id: 'b', type: 'coding', title: 'Sum two numbers!', language: 'python' as const },
    { id: 'c', type: 'coding', title: 'Été à Paris', language: 'javascript' as const, workspaceFile: 'mine/x.js' },
    { id: 'd', type: 'coding', title: 'Fix the bug', language: 'java' as const, repository: { files: [] } },
    { id: 'e', type: 'coding', title: '???', language: 'cpp' as const },
  ];

  it("is q<N>-<slug>/<source file> in the exam's numbering, the creator's own path, or a repository's source file", () => {
    expect(questionWorkspaceFiles(exam)).toEqual({
      b: 'q2-sum-two-numbers/main.py',
      c: 'mine/x.js',
      d: 'Main.java',
      e: 'q5-question/main.cpp',
    });
    expect(questionSlug('Été à Paris')).toBe('ete-a-paris');
    expect(questionSlug('x'.repeat(80))).toHaveLength(40);
  });

  it('is filled into the questions only when the exam has a coding workspace', () => {
    expect(withWorkspaceFiles(exam, { enabled: false }).map((q) => 'workspaceFile' in q && q.workspaceFile)).toEqual([
      false,
      false,
      'mine/x.js',
      false,
      false,
    ]);
    const filled = withWorkspaceFiles(exam, { enabled: true });
    expect(filled.map((q) => ('workspaceFile' in q ? q.workspaceFile : undefined))).toEqual([
      undefined,
      'q2-sum-two-numbers/main.py',
      'mine/x.js',
      'Main.java',
      'q5-question/main.cpp',
    ]);
  });

  it("names the chosen language's source file beside the question's file", () => {
    const q = { language: 'python' as const, workspaceFile: 'q2-sum/main.py' };
    expect(workspaceFileFor(q, 'javascript')).toBe('q2-sum/main.js');
    expect(workspaceFileFor(q, 'python')).toBe('q2-sum/main.py');
    expect(workspaceFileFor({ language: 'python', workspaceFile: 'main.py' }, 'java')).toBe('Main.java');
    expect(workspaceFileFor({ language: 'python', workspaceFile: null }, 'java')).toBeNull();
  });
});

describe('a question whose candidate chooses the language', () => {
  const question = (fields: Record<string, unknown>) =>
    QuestionSchema.safeParse({
      id: 'q',
      type: 'coding',
      title: 'Echo',
      language: 'python',
      tests: [{ id: 't', stdin: 'a', expected: 'a' }],
      ...fields,
    });
  const paths = (r: ReturnType<typeof question>) => r.error?.issues.map((i) => i.path.join('.')) ?? [];

  it('offers the languages with their starter code to the candidate', () => {
    const parsed = question({ languages: ['python', 'javascript'], starterCodes: { javascript: '// js' } });
    expect(parsed.success).toBe(true);
    const view = toPublicQuestion(parsed.data!);
    expect(view.languages).toEqual(['python', 'javascript']);
    expect(view.starterCodes).toEqual({ javascript: '// js' });
    expect(allowedLanguages(parsed.data!)).toEqual(['python', 'javascript']);
    expect(toPublicQuestion(question({}).data!).languages).toBeUndefined();
    expect(starterCodeFor({ ...parsed.data!, starterCode: '# py' }, 'javascript')).toBe('// js');
    expect(starterCodeFor({ ...parsed.data!, starterCode: '# py' }, 'python')).toBe('# py');
  });

  it('refuses languages without the primary one, twice the same, SQL, a repository, or starter code for another', () => {
    expect(paths(question({ languages: ['javascript', 'java'] }))).toEqual(['languages']);
    expect(paths(question({ languages: ['python', 'python'] }))).toEqual(['languages']);
    expect(paths(question({ languages: ['python', 'sql'] }))).toEqual(['languages']);
    expect(
      paths(question({ languages: ['python', 'java'], repository: { files: [{ path: 'a.py', content: '' }] } })),
    ).toEqual(['languages']);
    expect(paths(question({ languages: ['python', 'java'], starterCodes: { cpp: '' } }))).toEqual(['starterCodes.cpp']);
    expect(paths(question({ starterCodes: { java: '' } }))).toEqual(['starterCodes']);
    expect(paths(question({ type: 'essay', tests: [], languages: ['python', 'java'] }))).toEqual(['languages']);
  });
});
