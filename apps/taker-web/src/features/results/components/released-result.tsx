import { formatPoints, formatScore } from '@exam/domain/grading';
import type { CandidateResult } from '@exam/domain/result';
import { Card } from '@exam/ui/card';
import { TestVerdicts } from '@exam/ui/test-verdicts';

type ResultQuestion = CandidateResult['questions'][number];

function QuestionPoints({ question }: { question: ResultQuestion }) {
  const text =
    question.points === null
      ? 'awaiting grading'
      : `${formatPoints(question.points)} / ${formatPoints(question.maxPoints)} pts`;
  return <span className="shrink-0 text-sm font-medium text-ink">{text}</span>;
}

function ResultQuestionItem({ question, index }: { question: ResultQuestion; index: number }) {
  return (
    <li className="rounded-card border border-line p-4" aria-labelledby={`result-q-${index}`}>
      <div className="flex items-start justify-between gap-3">
        <h3 id={`result-q-${index}`} className="text-sm font-semibold text-ink">
          {`Q${index + 1}: ${question.title}`}
        </h3>
        <QuestionPoints question={question} />
      </div>
      <p className="mt-2 whitespace-pre-wrap text-sm text-ink">
        <span className="text-muted">Your answer: </span>
        {question.answer}
      </p>
      {question.tests && <QuestionTests tests={question.tests} index={index} />}
      {question.feedback && (
        <p className="mt-2 whitespace-pre-wrap text-sm text-ink">
          <span className="text-muted">Feedback: </span>
          {question.feedback}
        </p>
      )}
      {/* Keys appear only when the server sends them (the exam shows answer keys). */}
      {question.correctAnswer !== null && (
        <p className="mt-2 text-sm text-success">{`Correct answer: ${question.correctAnswer}`}</p>
      )}
    </li>
  );
}

/** The tests' verdicts: every test's outcome; input and outputs only for the visible ones (the server's cut). */
function QuestionTests({ tests, index }: { tests: NonNullable<ResultQuestion['tests']>; index: number }) {
  if (tests.state === 'queued' || tests.state === 'running')
    return <p className="mt-2 text-sm text-muted">Tests running…</p>;
  if (tests.state !== 'done') return null;
  return (
    <div className="mt-3">
      <TestVerdicts
        verdicts={tests.verdicts}
        compileOutput={tests.compileOutput}
        label={`Tests of Q${index + 1}`}
        showPoints
      />
    </div>
  );
}

/** /taker/results/{attemptId} once released: the server's score and, per question, points and feedback. */
export function ReleasedResult({ result }: { result: CandidateResult }) {
  return (
    <Card className="w-full max-w-2xl p-8">
      <h1 className="text-2xl font-semibold text-ink">Your result</h1>
      <p className="mt-1 text-muted">{result.examTitle}</p>
      <p className="mt-4 text-xl font-semibold text-ink" data-testid="result-score">
        {formatScore(result)}
      </p>
      <ol className="mt-6 flex flex-col gap-3">
        {result.questions.map((question, index) => (
          <ResultQuestionItem key={index} question={question} index={index} />
        ))}
      </ol>
    </Card>
  );
}
