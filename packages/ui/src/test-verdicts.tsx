import type { TestOutcome, TestVerdict } from '@exam/domain/coding';
import { getI18n, useTranslation } from 'react-i18next';
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

/*
 * getI18n() is the app's i18next instance (react-i18next knows it once the app built it with createI18n): the
 * helpers below are plain functions, called outside components too, in the language the page speaks.
 */
const language = () => getI18n().resolvedLanguage;

/** "Test 3" when the creator left the name empty. */
export const testName = (verdict: Pick<TestVerdict, 'name'>, index: number) =>
  verdict.name.trim() || getI18n().t('ui:verdicts.testNumber', { number: index + 1 });

/** "All 5 tests pass" or "2 of 5 tests fail: Test 1, Sorting". */
export function verdictSummary(verdicts: readonly TestVerdict[]): string {
  const failed = verdicts.flatMap((v, i) => (v.outcome === 'passed' ? [] : [testName(v, i)]));
  const count = verdicts.length;
  if (failed.length === 0) return getI18n().t('ui:verdicts.allPass', { count });
  return getI18n().t('ui:verdicts.someFail', { count, failed: failed.length, names: failed.join(', ') });
}

/** A run's time with the SI symbols every language shares, its number as the language writes it: '1.50 s' / '1,50 s'. */
function formatTime(ms: number): string {
  const number = (value: number, digits: number) =>
    new Intl.NumberFormat(language(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
  return ms < 1000 ? `${number(Math.round(ms), 0)} ms` : `${number(ms / 1000, 2)} s`;
}

/** Points as the domain rounds them (two decimals at most), in the page's language. */
const formatPoints = (points: number) =>
  new Intl.NumberFormat(language(), { maximumFractionDigits: 2 }).format(Math.round(points * 100) / 100);

function Excerpt({ label, text, testId }: { label: string; text: string; testId: string }) {
  const { t } = useTranslation('ui');
  return (
    <div className="min-w-0 flex-1">
      <p className="text-xs font-medium text-muted">{label}</p>
      <pre
        data-testid={testId}
        className="mt-0.5 max-h-48 overflow-auto whitespace-pre-wrap break-words rounded bg-canvas p-2 font-mono text-xs text-ink"
      >
        {text === '' ? t('verdicts.empty') : text}
      </pre>
    </div>
  );
}

function VerdictRow({ verdict, index, showPoints }: { verdict: TestVerdict; index: number; showPoints: boolean }) {
  const { t } = useTranslation('ui');
  const outcome = t(`verdicts.outcomes.${verdict.outcome}`);
  const wrong = verdict.outcome === 'failed' && verdict.expected !== undefined && verdict.actual !== undefined;
  return (
    <li
      data-testid={`verdict-${index}`}
      data-outcome={verdict.outcome}
      aria-label={`${testName(verdict, index)}: ${outcome}`}
      className="flex flex-col gap-2 rounded-md border border-line p-3"
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium text-ink">{testName(verdict, index)}</span>
        {!verdict.visible && <Badge tone="neutral">{t('verdicts.hidden')}</Badge>}
        <Badge tone={OUTCOME_TONES[verdict.outcome]}>{outcome}</Badge>
        <span className="text-xs text-muted tabular-nums">{formatTime(verdict.timeMs)}</span>
        {showPoints && (
          <span className="ml-auto text-xs text-muted tabular-nums">
            {t('verdicts.points', {
              points: formatPoints(verdict.points),
              max: formatPoints(verdict.maxPoints),
              count: verdict.maxPoints,
            })}
          </span>
        )}
      </div>
      {wrong && (
        <div className="flex flex-col gap-2 sm:flex-row">
          <Excerpt label={t('verdicts.expected')} text={verdict.expected ?? ''} testId={`verdict-${index}-expected`} />
          <Excerpt label={t('verdicts.actual')} text={verdict.actual ?? ''} testId={`verdict-${index}-actual`} />
        </div>
      )}
      {verdict.outcome !== 'passed' && verdict.stderr && (
        <Excerpt label={t('verdicts.errorOutput')} text={verdict.stderr} testId={`verdict-${index}-stderr`} />
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
  const { t } = useTranslation('ui');
  return (
    <div className="flex flex-col gap-2">
      {compileOutput && <Excerpt label={t('verdicts.compilerOutput')} text={compileOutput} testId="compile-output" />}
      <ul aria-label={label} className="flex flex-col gap-2">
        {verdicts.map((verdict, index) => (
          <VerdictRow key={verdict.testId} verdict={verdict} index={index} showPoints={showPoints} />
        ))}
      </ul>
    </div>
  );
}
