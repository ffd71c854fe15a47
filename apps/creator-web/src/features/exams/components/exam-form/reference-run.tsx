import { CodingLimitsSchema, TestCaseSchema, type ReferenceRunRequest, type RunReport } from '@exam/domain/coding';
import type { CodingLanguage } from '@exam/domain/question';
import { Button } from '@exam/ui/button';
import { TestVerdicts, verdictSummary } from '@exam/ui/test-verdicts';
import { Loader2, Play } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { userMessageOf } from '../../../../lib/api-client.ts';
import { useRunReference } from '../../api/run-reference.ts';
import type { ExamFormInput } from './exam-form-model.ts';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../../i18n/index.ts';

const CodeInput = lazy(() => import('@exam/ui/code-editor'));

/** What a finished (or refused) reference run says in one line. */
export function referenceSummary(report: RunReport): string {
  if (report.state === 'done') return verdictSummary(report.verdicts);
  if (report.state === 'queued' || report.state === 'running') return i18n.t('editor:referenceRun.notFinished');
  return report.reason ?? i18n.t('editor:referenceRun.couldNotRun');
}

/**
 * The request for a reference run: the question's tests and limits as the schema reads them, so the runner
 * gets the same values a save would store; a message instead when the tests are not valid yet.
 */
export function referenceRequest(
  q: Pick<NonNullable<ExamFormInput['questions']>[number], 'tests' | 'limits' | 'setupScript' | 'referenceSolution'>,
  language: CodingLanguage,
  examId: string | undefined,
): ReferenceRunRequest | string {
  const tests = TestCaseSchema.array()
    .min(1)
    .safeParse((q.tests ?? []).map((t) => ({ ...t, args: (t.args ?? []).filter((a) => a.trim() !== '') })));
  if (!tests.success) return i18n.t('editor:referenceRun.fixTests');
  const limits = CodingLimitsSchema.safeParse(q.limits ?? {});
  if (!limits.success) return i18n.t('editor:referenceRun.fixLimits');
  return {
    language,
    code: q.referenceSolution ?? '',
    tests: tests.data,
    limits: limits.data,
    setupScript: language === 'sql' ? (q.setupScript ?? '') : '',
    examId: examId ?? null,
  };
}

/** The creator's own solution and Run reference: the question's tests against it, verdict by verdict. */
export function ReferenceRun({ index, examId }: { index: number; examId?: string | undefined }) {
  const { t } = useTranslation('editor');
  const { control, setValue } = useFormContext<ExamFormInput>();
  const q = useWatch({ control, name: `questions.${index}` });
  const language = q?.language ?? 'python';
  const run = useRunReference();
  const [problem, setProblem] = useState<string | null>(null);
  const n = index + 1;
  const start = () => {
    if (!q) return;
    const request = referenceRequest(q, language, examId);
    if (typeof request === 'string') {
      setProblem(request);
      run.reset();
      return;
    }
    setProblem(null);
    run.mutate(request);
  };
  const report = run.data;
  const message = run.isPending
    ? t('referenceRun.runningTheTestsAgainst')
    : (problem ?? (run.isError ? userMessageOf(run.error) : report ? referenceSummary(report) : ''));

  return (
    <div className="flex flex-col gap-2" data-testid={`reference-run-${index}`}>
      <p className="text-sm font-medium text-ink">{t('referenceRun.referenceSolution')}</p>
      <p className="-mt-1 text-xs text-muted">{t('referenceRun.yourOwnSolutionTo')}</p>
      <Suspense fallback={<p className="text-sm text-muted">{t('referenceRun.loadingEditor')}</p>}>
        <CodeInput
          value={q?.referenceSolution ?? ''}
          language={language}
          label={t('referenceRun.questionNReferenceSolution', { n })}
          onChange={(value) => setValue(`questions.${index}.referenceSolution`, value, { shouldDirty: true })}
          testId={`reference-solution-${index}`}
          minHeight="120px"
          maxHeight="400px"
        />
      </Suspense>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="secondary"
          size="sm"
          onClick={start}
          disabled={run.isPending}
          aria-busy={run.isPending || undefined}
          aria-label={t('referenceRun.questionNRunReference', { n })}
        >
          {run.isPending ? (
            <Loader2 aria-hidden className="h-4 w-4 animate-spin" />
          ) : (
            <Play aria-hidden className="h-4 w-4" />
          )}
          {run.isPending ? t('referenceRun.running') : t('referenceRun.runReference')}
        </Button>
        <p role="status" aria-live="polite" className="text-sm text-ink" data-testid={`reference-summary-${index}`}>
          {message}
        </p>
      </div>
      {report && !run.isPending && !problem && report.state === 'done' && (
        <TestVerdicts
          verdicts={report.verdicts}
          compileOutput={report.compileOutput}
          label={t('referenceRun.questionNReferenceVerdicts', { n })}
          showPoints
        />
      )}
    </div>
  );
}
