import type { CandidateResult } from '@exam/domain/result';
import { Card } from '@exam/ui/card';
import { RichText } from '@exam/ui/rich-text';
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
      : t('result.points', {
          points: points(question.points),
          max: points(question.maxPoints),
          count: question.maxPoints,
        });
  return <span className="shrink-0 text-sm font-medium text-ink">{text}</span>;
}

/** '7 / 9 points · 77.8%', or the points with 'awaiting grading' while a grader still has to mark something. */
function ScoreLine({ result }: { result: CandidateResult }) {
  const { t } = useTranslation('results');
  const total = t('result.points', {
    points: points(result.score),
    max: points(result.maxScore),
    count: result.maxScore,
  });
  return result.status === 'pending'
    ? t('result.scoreAwaiting', { points: total })
    : t('result.scoreWithPercent', { points: total, percent: formatPercent(result.percentage) });
}

/** The answer as given: code in a monospace block named by its language, other answers as text. */
function Answer({ question, index }: { question: ResultQuestion; index: number }) {
  const { t } = useTranslation('results');
  if (question.questionType === 'coding' && question.language) {
    const label = t('result.yourCode', { language: t(`result.languages.${question.language}`) });
    return (
      <figure className="mt-2" aria-labelledby={`result-code-${index}`}>
        <figcaption id={`result-code-${index}`} className="text-sm text-muted">
          {label}
        </figcaption>
        <pre
          className="mt-1 max-h-96 overflow-auto rounded-md border border-line bg-canvas p-3 font-mono text-xs text-ink"
          // Focusable so a keyboard can scroll long code (axe scrollable-region-focusable).
          tabIndex={0}
        >
          <code className={`language-${question.language}`}>{question.answer}</code>
        </pre>
      </figure>
    );
  }
  return (
    <p className="mt-2 whitespace-pre-wrap text-sm text-ink">
      <span className="text-muted">{t('result.yourAnswer')}</span>
      {question.answer}
    </p>
  );
}

/** Why the points are what they are: who marked it, the parts right under the question's rule. */
function PartialCredit({ question, index }: { question: ResultQuestion; index: number }) {
  const { t } = useTranslation('results');
  const credit = question.partialCredit;
  if (!question.markedBy && !credit) return null;
  const rule = !credit
    ? null
    : credit.kind === 'tests'
      ? t('result.partial.ruleTests')
      : credit.rule === 'partial'
        ? t('result.partial.rulePartial')
        : t('result.partial.ruleAll');
  return (
    <p className="mt-2 text-sm text-ink" data-testid={`result-explanation-${index}`}>
      {credit && (
        <>
          <span className="font-medium">
            {t(`result.partial.${credit.kind}`, { right: credit.right, of: credit.of })}
          </span>{' '}
          {rule}{' '}
        </>
      )}
      {question.markedBy && <span className="text-muted">{t(`result.markedBy.${question.markedBy}`)}</span>}
    </p>
  );
}

/** The rubric's criteria with the points the grader gave for each. */
function Criteria({ criteria, index }: { criteria: NonNullable<ResultQuestion['criteria']>; index: number }) {
  const { t } = useTranslation('results');
  return (
    <div className="mt-3">
      <h4 id={`result-rubric-${index}`} className="text-sm font-medium text-ink">
        {t('result.rubric')}
      </h4>
      <ul className="mt-1 flex flex-col gap-1 text-sm" aria-labelledby={`result-rubric-${index}`}>
        {criteria.map((c, i) => (
          <li key={i} className="flex items-start justify-between gap-3 rounded-md bg-canvas px-3 py-1.5">
            <span className="text-ink">{c.description}</span>
            <span className={`shrink-0 font-medium ${c.points > 0 ? 'text-success' : 'text-muted'}`}>
              {t('result.criterionPoints', { points: points(c.points), max: points(c.maxPoints), count: c.maxPoints })}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

type Passage = NonNullable<CandidateResult['passages']>[number];

function ResultQuestionItem({
  question,
  index,
  passage,
}: {
  question: ResultQuestion;
  index: number;
  passage: Passage | undefined;
}) {
  const { t } = useTranslation('results');
  return (
    <li className="rounded-card border border-line p-4" aria-labelledby={`result-q-${index}`}>
      <div className="flex items-start justify-between gap-3">
        <h3 id={`result-q-${index}`} className="text-sm font-semibold text-ink">
          {t('result.question', { number: index + 1, title: question.title })}
        </h3>
        <QuestionPoints question={question} />
      </div>
      {/* The passage the question was read beside, folded so the question stays in view. */}
      {passage && (
        <details className="mt-2 rounded-md border border-line bg-canvas px-3 py-2 text-sm">
          <summary className="cursor-pointer font-medium text-ink">
            {t('result.passage', { title: passage.title })}
          </summary>
          <RichText className="mt-2 text-ink">{passage.content}</RichText>
        </details>
      )}
      {question.content && (
        <RichText className="mt-2 text-sm text-ink" testId={`result-content-${index}`}>
          {question.content}
        </RichText>
      )}
      <Answer question={question} index={index} />
      {question.tests && <QuestionTests tests={question.tests} index={index} />}
      <PartialCredit question={question} index={index} />
      {question.criteria && <Criteria criteria={question.criteria} index={index} />}
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

/**
 * /taker/results/{attemptId} once released: the server's score and, per question, its text (and passage), the
 * answer (code in a monospace block), points, how they were reached (parts right, rubric criteria) and feedback.
 */
export function ReleasedResult({ result }: { result: CandidateResult }) {
  const { t } = useTranslation('results');
  return (
    <Card className="w-full max-w-3xl p-6 sm:p-8">
      <h1 className="text-2xl font-semibold text-ink">{t('result.title')}</h1>
      <p className="mt-1 text-muted">{result.examTitle}</p>
      <p className="mt-4 text-xl font-semibold text-ink" data-testid="result-score">
        <ScoreLine result={result} />
      </p>
      {result.plantedUnavailable && <p className="mt-2 text-sm text-muted">{t('result.plantedUnavailable')}</p>}
      <ol className="mt-6 flex flex-col gap-3">
        {result.questions.map((question, index) => (
          <ResultQuestionItem
            key={index}
            question={question}
            index={index}
            passage={result.passages?.find((p) => p.id === question.passageId)}
          />
        ))}
      </ol>
    </Card>
  );
}
