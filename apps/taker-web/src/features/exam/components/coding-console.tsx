import type { ConsoleRun, RunAnswer, RunLanguage } from '@exam/domain/coding';
import { Button } from '@exam/ui/button';
import { Textarea } from '@exam/ui/input';
import { Loader2, Play } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useRunConsole } from '../api/run-console.ts';

type CodingConsoleProps = {
  index: number;
  /** The code the page would send: the editor's, or the last saved answer when the workspace holds the file. */
  code: string;
  language: RunLanguage | undefined;
  /** Null in the creator's preview: there is no attempt to run for. */
  attempt: { attemptId: string; token: string } | null;
  /** What the server ran (the workspace file, or the code sent), for the card to save. */
  onRan: (answer: RunAnswer) => void;
};

/** The run's line under the output: its exit code and time, or the limit it hit, or why it did not run. */
function RunStatus({ run }: { run: ConsoleRun }) {
  const { t } = useTranslation('questions');
  if (run.state === 'queued' || run.state === 'running') return <>{t('coding.console.stillRunning')}</>;
  if (run.state !== 'done') return <>{run.reason ?? t('coding.couldNotRun')}</>;
  const limit = run.outcome && run.outcome !== 'ok' ? t(`coding.console.outcome.${run.outcome}`) : null;
  return (
    <>
      {limit && <span className="font-semibold">{limit} · </span>}
      {t('coding.console.status', { code: run.exitCode ?? '–', ms: Math.round(run.timeMs ?? 0) })}
    </>
  );
}

/**
 * The console of a coding question (docs/product.md#coding-questions): the candidate's own input, "Run", and what
 * the program printed, its exit code and time. It runs in the tests' sandbox, server-side, against the same code
 * Run tests would use; nothing of the tests is involved.
 */
export function CodingConsole({ index, code, language, attempt, onRan }: CodingConsoleProps) {
  const { t } = useTranslation('questions');
  const [stdin, setStdin] = useState('');
  const run = useRunConsole(attempt, index);
  const inputId = useId();
  const hintId = useId();
  const start = () =>
    run.mutate({ code, stdin, language }, { onSuccess: (result) => result.answer && onRan(result.answer) });
  const result = run.data;

  return (
    <div className="mt-3 flex flex-col gap-2" data-testid={`coding-console-${index}`}>
      <div className="flex items-end gap-2">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={inputId} className="text-xs font-medium text-ink">
            {t('coding.console.input', { number: index + 1 })}
          </label>
          <Textarea
            id={inputId}
            aria-describedby={hintId}
            value={stdin}
            onChange={(e) => setStdin(e.target.value)}
            rows={2}
            spellCheck={false}
            className="font-mono text-xs"
          />
          <p id={hintId} className="text-xs text-muted">
            {t('coding.console.inputHint')}
          </p>
        </div>
        <Button
          size="sm"
          variant="secondary"
          className="mb-5"
          onClick={start}
          disabled={run.isPending || !attempt}
          aria-busy={run.isPending || undefined}
          title={attempt ? undefined : t('coding.console.runsDuringExam')}
        >
          {run.isPending ? (
            <Loader2 aria-hidden className="h-4 w-4 animate-spin" />
          ) : (
            <Play aria-hidden className="h-4 w-4" />
          )}
          {run.isPending ? t('coding.console.running') : t('coding.console.run')}
        </Button>
      </div>
      <div role="status" aria-live="polite" className="text-sm text-ink" data-testid={`console-status-${index}`}>
        {run.isPending ? t('coding.console.running') : run.isError ? userMessageOf(run.error) : null}
        {result && !run.isPending && !run.isError && <RunStatus run={result} />}
      </div>
      {result && !run.isPending && result.state === 'done' && (
        <section
          aria-label={t('coding.console.resultLabel', { number: index + 1 })}
          className="flex flex-col gap-2 text-xs"
        >
          <div>
            <h4 className="font-semibold text-ink">{t('coding.console.output')}</h4>
            <pre
              className="max-h-64 overflow-auto whitespace-pre-wrap rounded-md border border-line bg-canvas p-2 font-mono text-ink"
              data-testid={`console-stdout-${index}`}
            >
              {result.stdout || t('coding.console.noOutput')}
            </pre>
          </div>
          {result.stderr && (
            <div>
              <h4 className="font-semibold text-ink">{t('coding.console.errors')}</h4>
              <pre
                className="max-h-64 overflow-auto whitespace-pre-wrap rounded-md border border-line bg-canvas p-2 font-mono text-ink"
                data-testid={`console-stderr-${index}`}
              >
                {result.stderr}
              </pre>
            </div>
          )}
        </section>
      )}
    </div>
  );
}
