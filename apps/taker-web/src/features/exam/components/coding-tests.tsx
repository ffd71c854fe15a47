import type { RunAnswer, RunLanguage, RunReport } from '@exam/domain/coding';
import type { PublicQuestion } from '@exam/domain/question';
import { Button } from '@exam/ui/button';
import { TestVerdicts } from '@exam/ui/test-verdicts';
import type { TFunction } from 'i18next';
import { FlaskConical, Loader2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useRunVisibleTests } from '../api/run-tests.ts';

type CodingTestsProps = {
  index: number;
  question: PublicQuestion;
  /** The editor's current code (the starter code until the candidate edits it). */
  code: string;
  /** Null in the creator's preview: there is no attempt to run tests for. */
  attempt: { attemptId: string; token: string } | null;
  /** The language the candidate chose (the question's own when it offers one). */
  language?: RunLanguage | undefined;
  /** What the server ran (the workspace file, or the code sent), for the card to save. */
  onRan?: (answer: RunAnswer) => void;
};

type QuestionsT = TFunction<'questions'>;

/** "3 of 5 visible tests passed", or why the run has no verdicts (the runner's reason as it gave it). */
export function runSummary(report: RunReport, t: QuestionsT): string {
  if (report.state === 'queued' || report.state === 'running') return t('coding.stillRunning');
  if (report.state !== 'done') return report.reason ?? t('coding.couldNotRun');
  const passed = report.verdicts.filter((v) => v.outcome === 'passed').length;
  return t('coding.summary', { passed, count: report.verdicts.length });
}

/**
 * Under a coding question graded by tests: its limits, how many tests there are, and Run tests, which runs
 * the visible tests against the editor's code and shows a verdict per test (docs/product.md#coding-questions).
 * Hidden tests run only when the exam is submitted.
 */
export function CodingTests({ index, question, code, attempt, language, onRan }: CodingTestsProps) {
  const { t } = useTranslation('questions');
  const run = useRunVisibleTests(attempt, index);
  const visible = question.visibleTests?.length ?? 0;
  const hidden = question.hiddenTestCount ?? 0;
  if (visible + hidden === 0) return null;
  const report = run.data;
  // A refusal (too many runs, no sandbox, attempt closed) is shown in the live region below, not as a toast.
  const start = () =>
    run.mutate({ code, language }, { onSuccess: (result) => result.answer && onRan?.(result.answer) });

  return (
    <div className="mt-3 flex flex-col gap-3" data-testid={`coding-tests-${index}`}>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-xs text-muted">
        {question.limits && (
          <span data-testid={`limits-${index}`}>
            {t('coding.limits', { cpu: question.limits.cpuSeconds, memory: question.limits.memoryMb })}
          </span>
        )}
        <span data-testid={`test-counts-${index}`}>
          {t('coding.testCounts', {
            visible: t('coding.visibleTests', { count: visible }),
            hidden: t('coding.hiddenTests', { count: hidden }),
          })}
        </span>
        {visible > 0 && (
          <Button
            size="sm"
            variant="secondary"
            className="ml-auto"
            onClick={start}
            disabled={run.isPending || !attempt}
            aria-busy={run.isPending || undefined}
            title={attempt ? undefined : t('coding.runsDuringExam')}
          >
            {run.isPending ? (
              <Loader2 aria-hidden className="h-4 w-4 animate-spin" />
            ) : (
              <FlaskConical aria-hidden className="h-4 w-4" />
            )}
            {run.isPending ? t('coding.runningButton') : t('coding.runTests')}
          </Button>
        )}
      </div>
      {/* One live region: the busy state, then the summary of the run, or why it failed. */}
      <p role="status" aria-live="polite" className="text-sm text-ink" data-testid={`run-summary-${index}`}>
        {run.isPending
          ? t('coding.runningVisible')
          : run.isError
            ? userMessageOf(run.error)
            : report
              ? runSummary(report, t)
              : ''}
      </p>
      {report && !run.isPending && report.state === 'done' && (
        <TestVerdicts
          verdicts={report.verdicts}
          compileOutput={report.compileOutput}
          label={t('coding.resultsLabel', { number: index + 1 })}
        />
      )}
    </div>
  );
}
