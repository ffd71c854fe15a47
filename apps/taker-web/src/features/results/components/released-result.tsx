import type { CandidateResult } from '@exam/domain/result';
import { Card } from '@exam/ui/card';
import { TestVerdicts } from '@exam/ui/test-verdicts';
import { useTranslation } from 'react-i18next';
import { formatNumber, formatPercent } from '../../../i18n/format.ts';

type ResultQuestion = CandidateResult['questions'][number];

/** Points as the domain rounds them (two decimals at most), in the page's language: '2.5' / '2,5'. */
const points = (value: number) => formatNumber(Math.round(value * 100) / 100);

function QuestionPoints({ question }: { question: ResultQuestion }) {
  const { t } = useTranslation('results');
  const text =
    question.points === null
      ? t('result.awaitingGrading')
      : t('result.points', { points: points(question.points), max: points(question.maxPoints) });
  return <span className="shrink-0 text-sm font-medium text-ink">{text}</span>;
}

/** '7 / 9 pts · 77.8%', or the points with 'awaiting grading' while a grader still has to mark something. */
function ScoreLine({ result }: { result: CandidateResult }) {
  const { t } = useTranslation('results');
  const total = t('result.points', { points: points(result.score), max: points(result.maxScore) });
  return result.status === 'pending'
    ? t('result.scoreAwaiting', { points: total })
    : t('result.scoreWithPercent', { points: total, percent: formatPercent(result.percentage) });
}

function ResultQuestionItem({ question, index }: { question: ResultQuestion; index: number }) {
  const { t } = useTranslation('results');
  return (
    <li className="rounded-card border border-line p-4" aria-labelledby={`result-q-${index}`}>
      <div className="flex items-start justify-between gap-3">
        <h3 id={`result-q-${index}`} className="text-sm font-semibold text-ink">
          {t('result.question', { number: index + 1, title: question.title })}
        </h3>
        <QuestionPoints question={question} />
      </div>
      <p className="mt-2 whitespace-pre-wrap text-sm text-ink">
        <span className="text-muted">{t('result.yourAnswer')}</span>
        {question.answer}
      </p>
      {question.tests && <QuestionTests tests={question.tests} index={index} />}
      {question.feedback && (
        <p className="mt-2 whitespace-pre-wrap text-sm text-ink">
          <span className="text-muted">{t('result.feedback')}</span>
          {question.feedback}
        </p>
      )}
      {/* Reliance calibration: what the assistant stated on purpose, told only with the result (docs/product.md). */}
      {question.plantedError !== undefined && (
        <p role="note" className="mt-2 text-sm text-ink">
          {t('result.plantedError', { error: question.plantedError })}
        </p>
      )}
      {/* Keys appear only when the server sends them (the exam shows answer keys). */}
      {question.correctAnswer !== null && (
        <p className="mt-2 text-sm text-success">{t('result.correctAnswer', { answer: question.correctAnswer })}</p>
      )}
    </li>
  );
}

/** The tests' verdicts: every test's outcome; input and outputs only for the visible ones (the server's cut). */
function QuestionTests({ tests, index }: { tests: NonNullable<ResultQuestion['tests']>; index: number }) {
  const { t } = useTranslation('results');
  if (tests.state === 'queued' || tests.state === 'running')
    return <p className="mt-2 text-sm text-muted">{t('result.testsRunning')}</p>;
  if (tests.state !== 'done') return null;
  return (
    <div className="mt-3">
      <TestVerdicts
        verdicts={tests.verdicts}
        compileOutput={tests.compileOutput}
        label={t('result.testsOf', { number: index + 1 })}
        showPoints
      />
    </div>
  );
}

/** /taker/results/{attemptId} once released: the server's score and, per question, points and feedback. */
export function ReleasedResult({ result }: { result: CandidateResult }) {
  const { t } = useTranslation('results');
  return (
    <Card className="w-full max-w-2xl p-8">
      <h1 className="text-2xl font-semibold text-ink">{t('result.title')}</h1>
      <p className="mt-1 text-muted">{result.examTitle}</p>
      <p className="mt-4 text-xl font-semibold text-ink" data-testid="result-score">
        <ScoreLine result={result} />
      </p>
      {result.plantedUnavailable && <p className="mt-2 text-sm text-muted">{t('result.plantedUnavailable')}</p>}
      <ol className="mt-6 flex flex-col gap-3">
        {result.questions.map((question, index) => (
          <ResultQuestionItem key={index} question={question} index={index} />
        ))}
      </ol>
    </Card>
  );
}
