import { TEST_OUTCOME_LABELS, type TestOutcome, type TestVerdict } from '@exam/domain/coding';
import { formatPoints } from '@exam/domain/grading';
import { Badge, type BadgeTone } from './badge.tsx';

/**
 * The verdicts of one run of a coding question's tests, as a list: the creator's reference run, a
 * candidate's visible run, and the grade run on the result pages all show them the same way. What a row
 * shows is what the report holds: a candidate's report has no data for hidden tests (candidateReport in
 * @exam/domain/coding), so nothing here decides what may be seen.
 */

const OUTCOME_TONES: Record<TestOutcome, BadgeTone> = {
  passed: 'success',
  failed: 'danger',
  timeout: 'warning',
  memory: 'warning',
  'runtime-error': 'danger',
  'compile-error': 'danger',
};

/** "Test 3" when the creator left the name empty. */
export const testName = (verdict: Pick<TestVerdict, 'name'>, index: number) =>
  verdict.name.trim() || `Test ${index + 1}`;

/** "All 5 tests pass" or "2 of 5 tests fail: Test 1, Sorting". */
export function verdictSummary(verdicts: readonly TestVerdict[]): string {
  const failed = verdicts.flatMap((v, i) => (v.outcome === 'passed' ? [] : [testName(v, i)]));
  const n = verdicts.length;
  if (failed.length === 0) return n === 1 ? 'The test passes' : `All ${n} tests pass`;
  return `${failed.length} of ${n} ${n === 1 ? 'test fails' : 'tests fail'}: ${failed.join(', ')}`;
}

function formatTime(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

function Excerpt({ label, text, testId }: { label: string; text: string; testId: string }) {
  return (
    <div className="min-w-0 flex-1">
      <p className="text-xs font-medium text-muted">{label}</p>
      <pre
        data-testid={testId}
        className="mt-0.5 max-h-48 overflow-auto whitespace-pre-wrap break-words rounded bg-canvas p-2 font-mono text-xs text-ink"
      >
        {text === '' ? '(empty)' : text}
      </pre>
    </div>
  );
}

function VerdictRow({ verdict, index, showPoints }: { verdict: TestVerdict; index: number; showPoints: boolean }) {
  const wrong = verdict.outcome === 'failed' && verdict.expected !== undefined && verdict.actual !== undefined;
  return (
    <li
      data-testid={`verdict-${index}`}
      data-outcome={verdict.outcome}
      aria-label={`${testName(verdict, index)}: ${TEST_OUTCOME_LABELS[verdict.outcome]}`}
      className="flex flex-col gap-2 rounded-md border border-line p-3"
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium text-ink">{testName(verdict, index)}</span>
        {!verdict.visible && <Badge tone="neutral">Hidden</Badge>}
        <Badge tone={OUTCOME_TONES[verdict.outcome]}>{TEST_OUTCOME_LABELS[verdict.outcome]}</Badge>
        <span className="text-xs text-muted tabular-nums">{formatTime(verdict.timeMs)}</span>
        {showPoints && (
          <span className="ml-auto text-xs text-muted tabular-nums">
            {formatPoints(verdict.points)} / {formatPoints(verdict.maxPoints)} pts
          </span>
        )}
      </div>
      {wrong && (
        <div className="flex flex-col gap-2 sm:flex-row">
          <Excerpt label="Expected" text={verdict.expected ?? ''} testId={`verdict-${index}-expected`} />
          <Excerpt label="Actual" text={verdict.actual ?? ''} testId={`verdict-${index}-actual`} />
        </div>
      )}
      {verdict.outcome !== 'passed' && verdict.stderr && (
        <Excerpt label="Error output" text={verdict.stderr} testId={`verdict-${index}-stderr`} />
      )}
    </li>
  );
}

type TestVerdictsProps = {
  verdicts: readonly TestVerdict[];
  /** The compiler's output when compilation failed; shown once above the rows. */
  compileOutput?: string | undefined;
  label: string;
  showPoints?: boolean;
};

export function TestVerdicts({ verdicts, compileOutput, label, showPoints = false }: TestVerdictsProps) {
  return (
    <div className="flex flex-col gap-2">
      {compileOutput && <Excerpt label="Compiler output" text={compileOutput} testId="compile-output" />}
      <ul aria-label={label} className="flex flex-col gap-2">
        {verdicts.map((verdict, index) => (
          <VerdictRow key={verdict.testId} verdict={verdict} index={index} showPoints={showPoints} />
        ))}
      </ul>
    </div>
  );
}
