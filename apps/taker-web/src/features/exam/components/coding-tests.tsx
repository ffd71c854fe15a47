import type { RunReport } from '@exam/domain/coding';
import type { PublicQuestion } from '@exam/domain/exam';
import { Button } from '@exam/ui/button';
import { TestVerdicts } from '@exam/ui/test-verdicts';
import { FlaskConical, Loader2 } from 'lucide-react';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useRunVisibleTests } from '../api/run-tests.ts';

type CodingTestsProps = {
  index: number;
  question: PublicQuestion;
  /** The editor's current code (the starter code until the candidate edits it). */
  code: string;
  /** Null in the creator's preview: there is no attempt to run tests for. */
  attempt: { attemptId: string; token: string } | null;
};

/** "2 s · 256 MB" */
export function limitsLabel(limits: { cpuSeconds: number; memoryMb: number }): string {
  return `${limits.cpuSeconds} s · ${limits.memoryMb} MB`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "3 of 5 visible tests passed", or why the run has no verdicts. */
export function runSummary(report: RunReport): string {
  if (report.state === 'queued' || report.state === 'running') return 'Tests are still running…';
  if (report.state !== 'done') return report.reason ?? 'The tests could not run.';
  const passed = report.verdicts.filter((v) => v.outcome === 'passed').length;
  return `${passed} of ${plural(report.verdicts.length, 'visible test')} passed`;
}

/**
 * Under a coding question graded by tests: its limits, how many tests there are, and Run tests, which runs
 * the visible tests against the editor's code and shows a verdict per test (docs/product.md#coding-questions).
 * Hidden tests run only when the exam is submitted.
 */
export function CodingTests({ index, question, code, attempt }: CodingTestsProps) {
  const run = useRunVisibleTests(attempt, index);
  const visible = question.visibleTests?.length ?? 0;
  const hidden = question.hiddenTestCount ?? 0;
  if (visible + hidden === 0) return null;
  const report = run.data;
  // A refusal (too many runs, no sandbox, attempt closed) is shown in the live region below, not as a toast.
  const start = () => run.mutate(code);

  return (
    <div className="mt-3 flex flex-col gap-3" data-testid={`coding-tests-${index}`}>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-xs text-muted">
        {question.limits && <span data-testid={`limits-${index}`}>{limitsLabel(question.limits)}</span>}
        <span data-testid={`test-counts-${index}`}>
          {plural(visible, 'visible test')} · {plural(hidden, 'hidden test')} (run when you submit)
        </span>
        {visible > 0 && (
          <Button
            size="sm"
            variant="secondary"
            className="ml-auto"
            onClick={start}
            disabled={run.isPending || !attempt}
            aria-busy={run.isPending || undefined}
            title={attempt ? undefined : 'Tests run during the exam'}
          >
            {run.isPending ? (
              <Loader2 aria-hidden className="h-4 w-4 animate-spin" />
            ) : (
              <FlaskConical aria-hidden className="h-4 w-4" />
            )}
            {run.isPending ? 'Running tests…' : 'Run tests'}
          </Button>
        )}
      </div>
      {question.workspaceFile && (
        <p className="text-xs text-muted" data-testid={`workspace-file-${index}`}>
          Your answer is <code className="font-mono">{question.workspaceFile}</code> in your workspace when it exists;
          otherwise the code in this editor.
        </p>
      )}
      {/* One live region: the busy state, then the summary of the run, or why it failed. */}
      <p role="status" aria-live="polite" className="text-sm text-ink" data-testid={`run-summary-${index}`}>
        {run.isPending
          ? 'Running the visible tests…'
          : run.isError
            ? userMessageOf(run.error)
            : report
              ? runSummary(report)
              : ''}
      </p>
      {report && !run.isPending && report.state === 'done' && (
        <TestVerdicts
          verdicts={report.verdicts}
          compileOutput={report.compileOutput}
          label={`Test results for Q${index + 1}`}
        />
      )}
    </div>
  );
}
