import { z } from 'zod';
import { RUN_LANGUAGES, SOURCE_FILES, type RunLanguage } from './candidate-answers.ts';
import { gradedByTests, parseNumber, passedTestPoints, sumPoints } from './grading.ts';
export {
  RUN_LANGUAGES,
  SOURCE_FILES,
  starterCodeFor,
  workspaceFileFor,
  type RunLanguage,
} from './candidate-answers.ts';

/**
 * Coding questions graded by tests (docs/product.md#coding-questions). The creator writes test cases; the
 * runner (workspace-orchestrator's `modules/runner`) runs a candidate's code against them in a fresh,
 * locked-down container and reports one verdict per test; the question's points are the sum of the points
 * of its passed tests. Everything here is pure: schemas, the comparison of an output against the expected
 * one, and what a candidate may see of a report.
 */

/** How a test's output is compared with the expected output. */
export const COMPARISONS = ['exact', 'trimmed', 'numeric', 'unordered'] as const;
export const ComparisonSchema = z.enum(COMPARISONS);
export type Comparison = z.infer<typeof ComparisonSchema>;
export const COMPARISON_LABELS: Record<Comparison, string> = {
  exact: 'Exact',
  trimmed: 'Trimmed (trailing spaces and blank lines ignored)',
  numeric: 'Numbers within a tolerance',
  unordered: 'Lines or rows in any order',
};

const text = (max: number) => z.string().max(max);

/** 256 KB of input or expected output per test. */
export const MAX_TEST_IO = 256 * 1024;

export const TestCaseSchema = z.object({
  id: z.string().min(1).max(64),
  name: text(200).default(''),
  /**
   * Standard input. For SQL: statements run after the question's setup script and before the candidate's
   * query (the test's own rows).
   */
  stdin: text(MAX_TEST_IO).default(''),
  /** Command-line arguments (not used by SQL). */
  args: z.array(text(1000)).max(20).default([]),
  /** The expected standard output; for SQL the expected rows, one per line, columns separated by tabs. */
  expected: text(MAX_TEST_IO).default(''),
  comparison: ComparisonSchema.default('trimmed'),
  /** `numeric`: the absolute difference allowed between each expected and actual number. */
  tolerance: z.number().min(0).max(1e12).default(1e-6),
  points: z
    .number()
    .positive('Points must be more than 0')
    .max(1000)
    .refine((p) => Math.abs(Math.round(p * 100) - p * 100) < 1e-6, 'Points have at most two decimals')
    .default(1),
  /** Visible tests are the ones a candidate can run during the exam and whose expected output they see. */
  visible: z.boolean().default(false),
});
export type TestCase = z.infer<typeof TestCaseSchema>;

export const DEFAULT_CPU_SECONDS = 2;
export const DEFAULT_MEMORY_MB = 256;

/** Limits of one test: CPU seconds (also the wall-clock limit, doubled) and memory. */
export const CodingLimitsSchema = z.object({
  cpuSeconds: z.number().min(0.1, 'At least 0.1 s').max(30, 'At most 30 s').default(DEFAULT_CPU_SECONDS),
  memoryMb: z
    .number()
    .int('Whole megabytes')
    .min(32, 'At least 32 MB')
    .max(2048, 'At most 2048 MB')
    .default(DEFAULT_MEMORY_MB),
});
export type CodingLimits = z.infer<typeof CodingLimitsSchema>;

/** A path inside a repository: relative, no `..`, no leading slash, letters, digits, `_ . / -`. */
export const RepositoryPathSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^(?!\/)(?!.*\.\.)(?!.*\/\/)[\w./-]+$/, 'A path inside the repository, e.g. src/app.py');

export const RepositoryFileSchema = z.object({ path: RepositoryPathSchema, content: text(200_000) });
export type RepositoryFile = z.infer<typeof RepositoryFileSchema>;
export const MAX_REPOSITORY_FILES = 100;
export const MAX_HIDDEN_REPOSITORY_FILES = 50;
/** Bytes of all files of a repository together (starter and hidden each). */
export const MAX_REPOSITORY_BYTES = 1024 * 1024;
/** Paths the runner's bundle uses for itself; a repository file may not take them. */
export const RESERVED_REPOSITORY_PATHS = ['nonce', 'setup.sql', 'tests'] as const;

/**
 * An agentic task (issue 35): a coding question that comes with a starter repository. The workspace opens with
 * `files` (copied into the workspace folder when the attempt's workspace first starts); grading runs the tests
 * on the collected workspace with `hiddenFiles` added over it (a hidden test driver, fixtures), the runner running
 * SOURCE_FILES[language] at the repository's root as for any coding question. The hidden files never reach the
 * candidate's browser or workspace.
 */
export const CodingRepositorySchema = z.object({
  files: z.array(RepositoryFileSchema).max(MAX_REPOSITORY_FILES, `At most ${MAX_REPOSITORY_FILES} files`).default([]),
  hiddenFiles: z
    .array(RepositoryFileSchema)
    .max(MAX_HIDDEN_REPOSITORY_FILES, `At most ${MAX_HIDDEN_REPOSITORY_FILES} hidden files`)
    .default([]),
});
export type CodingRepository = z.infer<typeof CodingRepositorySchema>;

/**
 * Where each agentic task's repository sits in the candidate's workspace, by question id: at the workspace's root
 * when the exam has one question with a repository, under `q<N>/` (N the question's number in the exam's own
 * order, 1-based, whatever order a candidate sees) when several. Computed from the whole exam: the orchestrator
 * seeds the starter files so, results-service keeps the map in the attempt's snapshot at start (a candidate's
 * arrangement may hold fewer questions than the exam), grading reads the collected workspace from there, and the
 * grader's diff starts there.
 */
export function repositoryRoots(
  examQuestions: ReadonlyArray<{ id: string; repository?: object | null | undefined }>,
): Record<string, string> {
  const withRepository = examQuestions.flatMap((q, i) => (q.repository ? [{ id: q.id, n: i + 1 }] : []));
  const roots: Record<string, string> = {};
  for (const { id, n } of withRepository) roots[id] = withRepository.length > 1 ? `q${n}/` : '';
  return roots;
}

/** A question title as a folder name: lower-case letters, digits and dashes, at most 40 characters. */
export function questionSlug(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || 'question';
}

type WorkspaceQuestion = {
  id: string;
  type: string;
  title: string;
  language?: RunLanguage | undefined;
  workspaceFile?: string | null | undefined;
  repository?: object | null | undefined;
};

/**
 * The file of the candidate's coding workspace that is each coding question's answer (docs/product.md#the-coding-
 * workspace), by question id: the creator's own `workspaceFile` when set; an agentic task's source file
 * (SOURCE_FILES) at its repository's root; otherwise `q<N>-<slug>/<source file>`, N the question's number in the
 * exam's own order (whatever order a candidate sees). The orchestrator seeds these files with the starter code, the
 * taker's page opens the workspace on them and grading reads them: all three compute it from the whole exam here.
 */
export function questionWorkspaceFiles(examQuestions: ReadonlyArray<WorkspaceQuestion>): Record<string, string> {
  const roots = repositoryRoots(examQuestions);
  const files: Record<string, string> = {};
  examQuestions.forEach((q, i) => {
    if (q.type !== 'coding' || !q.language) return;
    if (q.workspaceFile) files[q.id] = q.workspaceFile;
    else if (q.repository) files[q.id] = `${roots[q.id] ?? ''}${SOURCE_FILES[q.language]}`;
    else files[q.id] = `q${i + 1}-${questionSlug(q.title)}/${SOURCE_FILES[q.language]}`;
  });
  return files;
}

/**
 * The exam's questions with each coding question's `workspaceFile` filled in (questionWorkspaceFiles) when the exam
 * has a coding workspace; unchanged without one (the inline editor is then the only place to answer).
 */
export function withWorkspaceFiles<Q extends WorkspaceQuestion>(
  examQuestions: readonly Q[],
  codingWorkspace: { enabled: boolean },
): Q[] {
  if (!codingWorkspace.enabled) return [...examQuestions];
  const files = questionWorkspaceFiles(examQuestions);
  return examQuestions.map((q) => (files[q.id] && !q.workspaceFile ? { ...q, workspaceFile: files[q.id]! } : q));
}

/**
 * The languages a candidate may write a coding question in: `languages` when the creator allows several, else the
 * primary language alone (none without a language).
 */
export function allowedLanguages(q: {
  language?: RunLanguage | undefined;
  languages?: readonly RunLanguage[] | undefined;
}): RunLanguage[] {
  if (!q.language) return [];
  return q.languages && q.languages.length > 0 ? [...q.languages] : [q.language];
}

/** Files of a run's repository (the workspace's files with the hidden ones over them), and their bytes together. */
export const MAX_RUN_REPOSITORY_FILES = 300;
export const MAX_RUN_REPOSITORY_BYTES = 4 * MAX_REPOSITORY_BYTES;

/**
 * The repository a run lays out at its root before the source file (which always wins: it is the request's
 * `code`): distinct relative paths, none the runner keeps for itself, within the caps. The orchestrator checks it
 * again on its side of POST /internal/runs.
 */
export const RunRepositorySchema = z
  .array(RepositoryFileSchema)
  .max(MAX_RUN_REPOSITORY_FILES, `At most ${MAX_RUN_REPOSITORY_FILES} files`)
  .superRefine((files, ctx) => {
    const seen = new Set<string>();
    let bytes = 0;
    files.forEach((f, i) => {
      if (seen.has(f.path))
        ctx.addIssue({ code: 'custom', path: [i, 'path'], message: 'Each file needs its own path' });
      seen.add(f.path);
      const top = f.path.split('/')[0]!;
      if ((RESERVED_REPOSITORY_PATHS as readonly string[]).includes(top))
        ctx.addIssue({ code: 'custom', path: [i, 'path'], message: `"${top}" is kept for the test runner` });
      bytes += new TextEncoder().encode(f.content).length;
    });
    if (bytes > MAX_RUN_REPOSITORY_BYTES)
      ctx.addIssue({ code: 'custom', path: [], message: 'The files add up to more than 4 MB' });
  });

/** The languages the runner has an image for (question.ts CODING_LANGUAGES names the same list). */
export const RunLanguageSchema = z.enum(RUN_LANGUAGES);

/** The coding fields of a question (merged into QuestionSchema). */
export const codingQuestionFields = {
  starterCode: text(100_000).default(''),
  tests: z.array(TestCaseSchema).max(50).default([]),
  limits: CodingLimitsSchema.default({ cpuSeconds: DEFAULT_CPU_SECONDS, memoryMb: DEFAULT_MEMORY_MB }),
  /** SQL: the schema and seed rows every test starts from. Ignored by the other languages. */
  setupScript: text(MAX_TEST_IO).default(''),
  /** The creator's own solution, run against the tests from the editor. Never sent to a candidate. */
  referenceSolution: text(100_000).default(''),
  /**
   * With a coding workspace: the file (relative to the workspace folder) whose content is the answer, e.g.
   * `q1/solution.py`. When it exists in the workspace it is what runs; otherwise the inline editor's code.
   */
  workspaceFile: z
    .string()
    .max(200)
    .regex(/^(?!\/)(?!.*\.\.)[\w./-]*$/, 'A path inside the workspace, e.g. q1/solution.py')
    .nullable()
    .default(null),
  /** An agentic task's starter repository and hidden files; null or absent for an ordinary coding question. */
  repository: CodingRepositorySchema.nullable().optional(),
  /**
   * The languages a candidate may choose from, `language` (the primary one) among them; empty: `language` only.
   * Only for tests that read stdin and print stdout whatever the language (no SQL, no repository): codingIssues.
   */
  languages: z.array(RunLanguageSchema).max(RUN_LANGUAGES.length).default([]),
  /** Starter code per further language (the primary language's is `starterCode`). */
  starterCodes: z.partialRecord(RunLanguageSchema, text(100_000)).default({}),
};

/** Whether a question is graded by running tests. */
export const isTestGraded = gradedByTests;

/** A question graded by tests is worth the sum of its tests' points. */
export function testPoints(tests: ReadonlyArray<Pick<TestCase, 'points'>>): number {
  return sumPoints(tests.map((t) => t.points));
}

// --- verdicts -------------------------------------------------------------------------------------------

export const TEST_OUTCOMES = ['passed', 'failed', 'timeout', 'memory', 'runtime-error', 'compile-error'] as const;
export const TestOutcomeSchema = z.enum(TEST_OUTCOMES);
export type TestOutcome = z.infer<typeof TestOutcomeSchema>;
export const TEST_OUTCOME_LABELS: Record<TestOutcome, string> = {
  passed: 'Passed',
  failed: 'Wrong output',
  timeout: 'Time limit exceeded',
  memory: 'Memory limit exceeded',
  'runtime-error': 'Runtime error',
  'compile-error': 'Compile error',
};

/** What one test did. `expected`/`actual`/`stdin` reach a candidate only for visible tests. */
export const TestVerdictSchema = z.object({
  testId: z.string(),
  name: z.string(),
  visible: z.boolean(),
  outcome: TestOutcomeSchema,
  points: z.number(),
  maxPoints: z.number(),
  timeMs: z.number().nonnegative(),
  exitCode: z.number().int().nullable(),
  /** Excerpts (at most MAX_EXCERPT characters each). */
  stdin: z.string().optional(),
  expected: z.string().optional(),
  actual: z.string().optional(),
  stderr: z.string().optional(),
});
export type TestVerdict = z.infer<typeof TestVerdictSchema>;

export const MAX_EXCERPT = 4000;

/**
 * A run's state. `queued`/`running` are on their way; `done` has a verdict per test; `unavailable` means no
 * sandbox could run it (no Docker engine; `reason` says why) and the question falls back to a grader;
 * `error` is the runner failing on its side (`reason`), also left to a grader.
 */
export const RUN_STATES = ['queued', 'running', 'done', 'unavailable', 'error'] as const;
export const RunStateSchema = z.enum(RUN_STATES);
export type RunState = z.infer<typeof RunStateSchema>;

export const RunReportSchema = z.object({
  runId: z.string(),
  state: RunStateSchema,
  verdicts: z.array(TestVerdictSchema),
  /** The compiler's output when compilation failed (excerpt). */
  compileOutput: z.string().optional(),
  reason: z.string().optional(),
  /** Points of passed tests / all tests; 0 / max until done. */
  points: z.number(),
  maxPoints: z.number(),
  queuedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type RunReport = z.infer<typeof RunReportSchema>;

export const RUN_PURPOSES = ['check', 'grade', 'reference'] as const;
export type RunPurpose = (typeof RUN_PURPOSES)[number];

/** POST /internal/runs (results-service → workspace-orchestrator). */
export const RunRequestSchema = z.object({
  purpose: z.enum(RUN_PURPOSES),
  language: RunLanguageSchema,
  code: text(200_000),
  tests: z.array(TestCaseSchema).min(1).max(50),
  limits: CodingLimitsSchema,
  setupScript: text(MAX_TEST_IO).default(''),
  /** Who the run is for, for logs and clean-up: the attempt and question, or the creator's exam. */
  attemptId: z.string().max(64).nullable().default(null),
  examId: z.string().max(64).nullable().default(null),
  questionIndex: z.number().int().min(0).nullable().default(null),
  /** An agentic task's repository (RunRepositorySchema); absent for an ordinary coding question. */
  files: RunRepositorySchema.optional(),
});
export type RunRequest = z.infer<typeof RunRequestSchema>;

/** POST /api/runner/reference (creator): the question's tests against the reference solution. */
export const ReferenceRunRequestSchema = RunRequestSchema.pick({
  language: true,
  code: true,
  tests: true,
  limits: true,
  setupScript: true,
}).extend({ examId: z.string().max(64).nullable().default(null) });
export type ReferenceRunRequest = z.infer<typeof ReferenceRunRequestSchema>;

/** POST /internal/runs/lookup: the reports of several runs (the grading job's poll). */
export const RunLookupSchema = z.object({ ids: z.array(z.string()).min(1).max(500) });
export const RunReportsSchema = z.object({ runs: z.array(RunReportSchema) });

/**
 * The error code of a run refused because no sandbox can take it (503 from the orchestrator: no Docker
 * engine, or no runner image for the language; the message says which).
 */
export const RUNNER_UNAVAILABLE = 'RUNNER_UNAVAILABLE';

/** The message for a run refused because no sandbox is reachable (the question goes to a grader). */
export const RunnerMessages = {
  unavailable: 'Tests cannot run here: no code sandbox is available. A grader will mark this question.',
  rateLimited: 'You are running tests too often. Wait a few seconds and try again.',
  noVisibleTests: 'This question has no tests you can run.',
} as const;

/** What a candidate may see of a report: hidden tests keep their outcome and points, never their data. */
export function candidateReport(report: RunReport): RunReport {
  return {
    ...report,
    verdicts: report.verdicts.map((v) =>
      v.visible
        ? v
        : {
            testId: v.testId,
            name: v.name,
            visible: false,
            outcome: v.outcome,
            points: v.points,
            maxPoints: v.maxPoints,
            timeMs: v.timeMs,
            exitCode: v.exitCode,
          },
    ),
  };
}

/** Points a finished report earns: the sum of the points of its passed tests. */
export const reportPoints: (verdicts: ReadonlyArray<Pick<TestVerdict, 'outcome' | 'maxPoints'>>) => number =
  passedTestPoints;

/**
 * A question's test grading as a result keeps it (StoredGrade.tests in results-service): the run's state,
 * its verdicts once done, and why it fell back to a grader when it did.
 */
export const TestGradingSchema = z.object({
  state: RunStateSchema,
  runId: z.string().nullable(),
  verdicts: z.array(TestVerdictSchema).default([]),
  compileOutput: z.string().optional(),
  reason: z.string().optional(),
});
export type TestGrading = z.infer<typeof TestGradingSchema>;

// --- comparison -----------------------------------------------------------------------------------------

const lines = (s: string) => s.replace(/\r\n?/g, '\n').split('\n');

/** Trailing spaces of each line and trailing blank lines dropped. */
export function trimOutput(s: string): string {
  return lines(s)
    .map((l) => l.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n+$/, '');
}

/**
 * Whether `actual` matches `expected` under the test's comparison.
 * - exact: byte for byte (line endings normalised);
 * - trimmed: trailing whitespace of lines and trailing blank lines ignored;
 * - numeric: the same tokens, numbers within `tolerance` of each other, other tokens equal;
 * - unordered: the same multiset of trimmed non-empty lines (SQL rows in any order).
 */
export function outputMatches(expected: string, actual: string, comparison: Comparison, tolerance = 1e-6): boolean {
  switch (comparison) {
    case 'exact':
      return expected.replace(/\r\n?/g, '\n') === actual.replace(/\r\n?/g, '\n');
    case 'trimmed':
      return trimOutput(expected) === trimOutput(actual);
    case 'numeric': {
      const want = expected.trim().split(/\s+/).filter(Boolean);
      const got = actual.trim().split(/\s+/).filter(Boolean);
      if (want.length !== got.length) return false;
      return want.every((w, i) => {
        const a = parseNumber(w);
        const b = parseNumber(got[i]!);
        if (a === undefined || b === undefined) return w === got[i];
        return Math.abs(a - b) <= tolerance + 1e-12 * Math.max(1, Math.abs(a));
      });
    }
    case 'unordered': {
      const norm = (s: string) =>
        lines(s)
          .map((l) => l.trim())
          .filter((l) => l !== '')
          .sort();
      const a = norm(expected);
      const b = norm(actual);
      return a.length === b.length && a.every((l, i) => l === b[i]);
    }
  }
}

/** The issues of a coding question's tests: duplicate ids, tests without a language. */
export function codingIssues(q: {
  type: string;
  language?: string | undefined;
  tests: ReadonlyArray<{ id: string }>;
  repository?: CodingRepository | null | undefined;
  languages?: readonly string[] | undefined;
  starterCodes?: Partial<Record<string, string>> | undefined;
  setupScript?: string | undefined;
}): Array<{ path: Array<string | number>; message: string }> {
  const issues: Array<{ path: Array<string | number>; message: string }> = [
    ...repositoryIssues(q),
    ...languageIssues(q),
  ];
  if (q.tests.length === 0) return issues;
  if (q.type !== 'coding') issues.push({ path: ['tests'], message: 'Only coding questions have tests' });
  else if (q.language === undefined)
    issues.push({ path: ['language'], message: 'Choose the language the tests run in' });
  const seen = new Set<string>();
  q.tests.forEach((t, i) => {
    if (seen.has(t.id)) issues.push({ path: ['tests', i, 'id'], message: 'Each test needs its own id' });
    seen.add(t.id);
  });
  return issues;
}

/** A repository's own rules: a coding question's, distinct paths, none reserved, within the size cap. */
export function repositoryIssues(q: {
  type: string;
  repository?: CodingRepository | null | undefined;
}): Array<{ path: Array<string | number>; message: string }> {
  const repo = q.repository;
  if (!repo) return [];
  if (q.type !== 'coding') return [{ path: ['repository'], message: 'Only coding questions have a repository' }];
  const issues: Array<{ path: Array<string | number>; message: string }> = [];
  for (const part of ['files', 'hiddenFiles'] as const) {
    const seen = new Set<string>();
    let bytes = 0;
    repo[part].forEach((f, i) => {
      if (seen.has(f.path))
        issues.push({ path: ['repository', part, i, 'path'], message: 'Each file needs its own path' });
      seen.add(f.path);
      const top = f.path.split('/')[0]!;
      if ((RESERVED_REPOSITORY_PATHS as readonly string[]).includes(top))
        issues.push({ path: ['repository', part, i, 'path'], message: `"${top}" is kept for the test runner` });
      bytes += new TextEncoder().encode(f.content).length;
    });
    if (bytes > MAX_REPOSITORY_BYTES)
      issues.push({ path: ['repository', part], message: 'The files add up to more than 1 MB' });
  }
  return issues;
}

/**
 * The rules of a question whose candidate chooses the language: a coding question with a primary language, listed
 * among its languages, each once; tests that only read stdin and print stdout (no SQL: its tests are rows after a
 * setup script; no repository: its hidden test driver is written in one language); starter code only for them.
 */
export function languageIssues(q: {
  type: string;
  language?: string | undefined;
  repository?: CodingRepository | null | undefined;
  languages?: readonly string[] | undefined;
  starterCodes?: Partial<Record<string, string>> | undefined;
}): Array<{ path: Array<string | number>; message: string }> {
  const languages = q.languages ?? [];
  const issues: Array<{ path: Array<string | number>; message: string }> = [];
  const extraStarters = Object.keys(q.starterCodes ?? {});
  if (languages.length === 0) {
    if (extraStarters.length > 0)
      issues.push({ path: ['starterCodes'], message: 'Starter code per language needs several languages' });
    return issues;
  }
  if (q.type !== 'coding') return [{ path: ['languages'], message: 'Only coding questions have languages' }];
  if (!q.language) return [{ path: ['language'], message: 'Choose the primary language' }];
  if (!languages.includes(q.language))
    issues.push({ path: ['languages'], message: 'The primary language must be one of the languages' });
  if (new Set(languages).size !== languages.length) issues.push({ path: ['languages'], message: 'Each language once' });
  if (languages.includes('sql') || q.language === 'sql')
    issues.push({
      path: ['languages'],
      message: 'SQL tests compare rows, not printed output: a SQL question has one language',
    });
  if (q.repository)
    issues.push({
      path: ['languages'],
      message: "A task with a repository runs its tests in the repository's language: choose one language",
    });
  for (const l of extraStarters)
    if (!languages.includes(l))
      issues.push({ path: ['starterCodes', l], message: `${l} is not one of the question's languages` });
  return issues;
}

// --- the candidate's console and check runs ------------------------------------------------------------

/**
 * What a check run or a console run ran (docs/product.md#the-coding-workspace): the workspace file's content when
 * the question is answered in the workspace and the workspace answered (`from: 'workspace'`; the page saves it as
 * the answer), otherwise the code the page sent (`from: 'inline'`). `workspaceUnreachable`: the workspace should
 * have answered and did not, so the candidate's last saved answer ran instead and stays the answer.
 */
export const RunAnswerSchema = z.object({
  code: z.string(),
  from: z.enum(['workspace', 'inline']),
  workspaceFile: z.string().nullable(),
  workspaceUnreachable: z.boolean(),
  language: RunLanguageSchema,
});
export type RunAnswer = z.infer<typeof RunAnswerSchema>;

/** POST …/test-runs's answer: the visible tests' report and what ran. */
export const CheckRunSchema = RunReportSchema.extend({ answer: RunAnswerSchema.optional() });
export type CheckRun = z.infer<typeof CheckRunSchema>;

/** Bytes of custom input a console run takes. */
export const MAX_CONSOLE_STDIN = 64 * 1024;

/** POST …/console-runs: the code (the workspace file wins when there is one), the input, the language chosen. */
export const ConsoleRunBodySchema = z.object({
  code: z.string().max(200_000),
  stdin: z.string().max(MAX_CONSOLE_STDIN, 'At most 64 KB of input').default(''),
  language: RunLanguageSchema.optional(),
});
export type ConsoleRunBody = z.infer<typeof ConsoleRunBodySchema>;

/**
 * A console run as the candidate sees it: the program's output on the custom input, its exit code and time, or why
 * it did not finish (`outcome`: `ok`, or the limit it hit, or a compile error with the compiler's output).
 */
export const ConsoleRunSchema = z.object({
  runId: z.string(),
  state: RunStateSchema,
  outcome: z.enum(['ok', 'timeout', 'memory', 'runtime-error', 'compile-error']).nullable(),
  stdout: z.string(),
  stderr: z.string(),
  exitCode: z.number().int().nullable(),
  timeMs: z.number().nonnegative().nullable(),
  reason: z.string().optional(),
  answer: RunAnswerSchema.optional(),
});
export type ConsoleRun = z.infer<typeof ConsoleRunSchema>;

/** The one test a console run is: the candidate's input, nothing expected (its verdict is never a score). */
export const CONSOLE_TEST_ID = 'console';

/** A console run's report as the candidate sees it. */
export function consoleView(report: RunReport): ConsoleRun {
  const verdict = report.verdicts[0];
  const outcome = verdict
    ? verdict.outcome === 'passed' || verdict.outcome === 'failed'
      ? 'ok'
      : verdict.outcome
    : report.compileOutput
      ? 'compile-error'
      : null;
  return {
    runId: report.runId,
    state: report.state,
    outcome,
    stdout: verdict?.actual ?? '',
    stderr: outcome === 'compile-error' ? (report.compileOutput ?? verdict?.stderr ?? '') : (verdict?.stderr ?? ''),
    exitCode: verdict?.exitCode ?? null,
    timeMs: verdict?.timeMs ?? null,
    ...(report.reason !== undefined ? { reason: report.reason } : {}),
  };
}

/** PUT …/questions/{index}/language: the candidate's choice among the question's languages. */
export const LanguageChoiceSchema = z.object({ language: RunLanguageSchema });
export const LanguageChoiceResultSchema = z.object({ questionIndex: z.number().int(), language: RunLanguageSchema });
/** GET …/languages: the attempt's choices by question index (the candidate's numbering). */
export const ChosenLanguagesSchema = z.object({ languages: z.record(z.string(), RunLanguageSchema) });
