import {
  MAX_EXCERPT,
  outputMatches,
  type CodingLimits,
  type TestCase,
  type TestOutcome,
  type TestVerdict,
} from '@exam/domain/coding';
import type { RunOutcome } from '../../db/schema.ts';
import type { HarnessReport, TestFrame } from '../../engine/runner-protocol.ts';

/** Exit statuses of a process ended by a signal, as the shell reports them (128 + signal number). */
const SIGKILL = 128 + 9;
const SIGXCPU = 128 + 24;

/** What language runtimes print when an allocation beyond their heap limit fails. */
const OUT_OF_MEMORY =
  /MemoryError|java\.lang\.OutOfMemoryError|std::bad_alloc|JavaScript heap out of memory|cannot allocate vector|out of memory/i;

/** The reason a run that failed on the runner's side ends with: the run id finds the logged detail. */
export const runnerFailedReason = (runId: string) =>
  `The code runner failed on its side while running this code (run ${runId}); the details are in its log.`;

export const TRUNCATED_MARKER = '\n… [output truncated]';
/** Appended to an output that held characters PostgreSQL cannot store, shown instead as U+FFFD. */
export const ESCAPED_MARKER = '\n… [unprintable bytes shown as \uFFFD]';

// eslint-disable-next-line no-control-regex -- U+0000 is exactly what PostgreSQL cannot store
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Output as it can be stored and shown: a program may print anything. PostgreSQL's text and jsonb cannot hold
 * U+0000 (https://www.postgresql.org/docs/current/datatype-json.html: "\u0000 is disallowed"), nor a lone
 * surrogate, which cutting an excerpt inside a surrogate pair makes; invalid UTF-8 is already U+FFFD (the
 * harness's fields are decoded as UTF-8). Each becomes U+FFFD and the text says so.
 */
export function storableText(s: string): string {
  const clean = s.replace(UNSTORABLE, '\uFFFD');
  return clean === s ? s : `${clean}${ESCAPED_MARKER}`;
}

const excerpt = (s: string) => storableText(s.length > MAX_EXCERPT ? `${s.slice(0, MAX_EXCERPT - 1)}…` : s);

/** The outcome of a test the harness reported, before the output is compared. */
function failureOf(frame: TestFrame, limits: CodingLimits): TestOutcome | undefined {
  if (frame.oomKills !== undefined && frame.oomKills > 0) return 'memory';
  // A program stopped at its time limit while it was pressing against the memory limit spent that time in
  // the kernel reclaiming pages for it (on a busy host the OOM killer can come later than the clock): the
  // candidate should read that as memory, which is the cause, not as a slow algorithm.
  const pressed = frame.limitHits !== undefined && frame.limitHits > 0;
  if (frame.status === SIGXCPU) return pressed ? 'memory' : 'timeout';
  if (frame.status === SIGKILL) {
    // A kill at the CPU or wall-clock limit is a timeout; an earlier one is the memory cgroup's OOM killer
    // (when the container could read its counter, that counter already said so above).
    if (frame.ms >= limits.cpuSeconds * 1000 * 0.95) return pressed ? 'memory' : 'timeout';
    return frame.oomKills === undefined ? 'memory' : 'runtime-error';
  }
  // Past the output cap the harness stopped reading: the program then dies of a broken pipe, which is the
  // consequence of the flood, not an error of its own.
  if (frame.truncated) return 'failed';
  if (frame.status !== 0) return OUT_OF_MEMORY.test(frame.stderr) ? 'memory' : 'runtime-error';
  return undefined;
}

/**
 * One verdict per test from the harness's report. A test the harness never reported (the whole run hit its
 * wall clock) is a timeout. Excerpts of the data are kept for every test; `candidateReport` strips them
 * from the hidden ones before a candidate sees a report.
 */
export function verdictsOf(tests: TestCase[], limits: CodingLimits, report: HarnessReport): RunOutcome {
  const compileFailed = report.compile !== undefined && report.compile.status !== 0;
  const verdicts = tests.map((test, i): TestVerdict => {
    const base = {
      testId: test.id,
      name: test.name,
      visible: test.visible,
      maxPoints: test.points,
      stdin: excerpt(test.stdin),
      expected: excerpt(test.expected),
    };
    if (compileFailed) return { ...base, outcome: 'compile-error', points: 0, timeMs: 0, exitCode: null };
    const frame = report.tests.get(i);
    if (!frame) return { ...base, outcome: 'timeout', points: 0, timeMs: 0, exitCode: null };
    const actual = frame.truncated
      ? storableText(`${frame.stdout.slice(0, MAX_EXCERPT - TRUNCATED_MARKER.length)}${TRUNCATED_MARKER}`)
      : excerpt(frame.stdout);
    const outcome =
      failureOf(frame, limits) ??
      (outputMatches(test.expected, frame.stdout, test.comparison, test.tolerance) ? 'passed' : 'failed');
    return {
      ...base,
      outcome,
      points: outcome === 'passed' ? test.points : 0,
      timeMs: Math.max(0, frame.ms),
      exitCode: frame.status > 128 ? null : frame.status,
      actual,
      ...(frame.stderr ? { stderr: excerpt(frame.stderr) } : {}),
    };
  });
  return {
    verdicts,
    ...(compileFailed ? { compileOutput: excerpt(report.compile?.output ?? '') } : {}),
  };
}
