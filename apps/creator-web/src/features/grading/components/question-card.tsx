import { formatPoints } from '@exam/domain/grading';
import type { Passage } from '@exam/domain/passages';
import type { Question } from '@exam/domain/question';
import type { QuestionAnswer } from '@exam/domain/result';
import { Badge, type BadgeTone } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { InlineRichText, RichText } from '@exam/ui/rich-text';
import { TestVerdicts, verdictSummary } from '@exam/ui/test-verdicts';
import { toast } from '@exam/ui/toaster';
import { Download } from 'lucide-react';
import { PartialCredit, PassageDisclosure, StructuredAnswer } from '../../../components/answers/structured-answer.tsx';
import { userMessageOf } from '../../../lib/api-client.ts';
import { readAnswer } from '../../../lib/read-answer.ts';
import { useDownloadAnswerFile } from '../api/download-file.ts';
import type { QuestionGrade } from '../grading-state.ts';
import { examIndexOf, seenElsewhere } from '../lib/exam-numbering.ts';
import { QuestionMarking, type MarkingActions } from './question-marking.tsx';
import { LANGUAGE_NAMES } from '@exam/domain/service-status';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import type { ReactNode } from 'react';

type Props = {
  resultId: string;
  qa: QuestionAnswer;
  grade: QuestionGrade;
  actions: MarkingActions;
  reasonError?: string | undefined;
  /** How the answer came to be (the timeline's section for this question), shown under the answer. */
  process?: ReactNode;
  /** The follow-up questions after submit that probe this answer, with their own marks, below the question's. */
  followUps?: ReactNode;
  /** An agentic task's review (the diff from its starter repository), under the tests' verdicts. */
  task?: ReactNode;
  /** The exam's own question, once the exam is loaded: it lays out the answers of the further types. */
  examQuestion?: Question | undefined;
  /** The shared passage the question was shown beside, from the exam. */
  passage?: Passage | undefined;
};

/** The question's state as the grader sees it: the key's points, a grader's mark, or waiting for one. */
function markBadge(qa: QuestionAnswer, grade: QuestionGrade): { text: ParseKeys<'grading'>; tone: BadgeTone } {
  if (grade.points === null && grade.touched) return { text: 'questionCard.badge.cleared', tone: 'neutral' };
  // Left unanswered and scored 0 under the exam's policy, or by a bulk action, until the grader marks it.
  if (qa.unanswered && !grade.touched)
    return {
      text: qa.autoScored ? 'questionCard.badge.unanswered' : 'questionCard.badge.unansweredBulk',
      tone: 'neutral',
    };
  if (!grade.touched && (qa.tests?.state === 'queued' || qa.tests?.state === 'running'))
    return { text: 'questionCard.badge.testsRunning', tone: 'info' };
  if (qa.tests?.state === 'done' && !grade.touched && grade.points !== null)
    return { text: 'questionCard.badge.scoredByTests', tone: 'info' };
  if (grade.points === null) return { text: 'questionCard.badge.awaiting', tone: 'warning' };
  if (qa.autoScored && !grade.touched) return { text: 'questionCard.badge.scoredByKey', tone: 'info' };
  return { text: 'questionCard.badge.marked', tone: 'brand' };
}

/** One question of the result: the candidate's answer, its points and the grader's controls. */
/** A coding question's grade run: on its way, fallen back to a grader (and why), or its verdicts. */
function QuestionTests({
  tests,
  number,
  questionIndex,
}: {
  tests: NonNullable<QuestionAnswer['tests']>;
  /** The exam's number of the question, as the card is headed. */
  number: number;
  questionIndex: number;
}) {
  const { t } = useTranslation(['grading', 'common']);
  if (tests.state === 'queued' || tests.state === 'running')
    return (
      <p className="text-sm text-muted" data-testid={`tests-state-${questionIndex}`}>
        {t('questionCard.testsRunning')}
      </p>
    );
  if (tests.state !== 'done')
    return (
      <p className="text-sm text-ink" data-testid={`tests-state-${questionIndex}`}>
        {t('questionCard.gradedByHand')}{' '}
        {tests.reason ??
          (tests.state === 'error' ? t('questionCard.theTestRunnerFailed') : t('questionCard.theTestsCouldNot'))}
      </p>
    );
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-ink" data-testid={`tests-state-${questionIndex}`}>
        {verdictSummary(tests.verdicts)}
      </p>
      <TestVerdicts
        verdicts={tests.verdicts}
        compileOutput={tests.compileOutput}
        label={t('questionCard.testsOfQuestionNumber', { number })}
        showPoints
      />
    </div>
  );
}

export function QuestionCard(props: Props) {
  const { resultId, qa, grade, actions, reasonError, process, followUps, task, examQuestion, passage } = props;
  const { t } = useTranslation(['grading', 'common']);
  const download = useDownloadAnswerFile();
  // The exam's own number, the same for every candidate; the candidate's place is only said beside it.
  const number = examIndexOf(qa) + 1;
  const badge = markBadge(qa, grade);
  const points = grade.points === null ? '—' : formatPoints(grade.points);
  const view = readAnswer(examQuestion, qa);
  const passageTitle = qa.passageTitle ?? passage?.title;

  return (
    <Card
      className="flex flex-col gap-3 p-5"
      role="group"
      aria-label={t('questionCard.questionNumber', { number })}
      data-testid={`question-${qa.questionIndex}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 className="font-semibold text-ink">
            Q{number}: {qa.question || t('questionCard.questionNumber', { number })}
          </h3>
          <p className="text-xs text-muted">
            {t(`common:questionType.${qa.questionType}`)}
            {seenElsewhere(qa) && (
              <span data-testid={`seen-as-${qa.questionIndex}`}>
                {' '}
                {t('questionCard.seenAsQuestion', { value: qa.questionIndex + 1 })}
              </span>
            )}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <span
            className="tabular-nums text-sm font-medium text-ink"
            data-testid={`question-points-${qa.questionIndex}`}
          >
            {t('questionCard.pointsMaxpointsPts', {
              points,
              maxPoints: formatPoints(qa.maxPoints),
              count: qa.maxPoints,
            })}
          </span>
          <Badge tone={badge.tone}>{t(badge.text)}</Badge>
        </div>
      </div>
      {passageTitle !== undefined && passageTitle !== null && (
        <PassageDisclosure title={passageTitle} content={passage?.content} />
      )}
      {qa.content && (
        <RichText className="text-sm text-ink" testId={`question-content-${qa.questionIndex}`}>
          {qa.content}
        </RichText>
      )}
      {qa.options.length > 0 && (
        <ul className="list-inside list-disc text-sm text-muted">
          {qa.options.map((option) => (
            <li key={option}>
              <InlineRichText>{option}</InlineRichText>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-col gap-2" data-testid={`answer-${qa.questionIndex}`}>
        <p className="text-xs font-medium uppercase tracking-wide text-muted">{t('questionCard.answer')}</p>
        {qa.language && (
          <p className="text-sm text-muted" data-testid={`answer-language-${qa.questionIndex}`}>
            {t('questionCard.answeredIn', { language: LANGUAGE_NAMES[qa.language] })}
          </p>
        )}
        {view ? (
          <>
            <StructuredAnswer view={view} />
            <PartialCredit
              view={view}
              points={grade.points}
              maxPoints={qa.maxPoints}
              testId={`partial-credit-${qa.questionIndex}`}
            />
          </>
        ) : (
          <>
            <pre className="whitespace-pre-wrap break-words rounded-md bg-canvas p-3 font-sans text-sm text-ink">
              {qa.multipleAnswers && qa.choices.length > 0 ? qa.choices.join(', ') : qa.answer}
            </pre>
            {qa.correctAnswer && (
              <p className="text-xs text-muted">
                {t('questionCard.answerKeyCorrectanswer', { correctAnswer: qa.correctAnswer })}
              </p>
            )}
          </>
        )}
      </div>
      {qa.file && (
        <div>
          <Button
            variant="secondary"
            size="sm"
            disabled={download.isPending}
            onClick={() =>
              download.mutate(
                { resultId, questionIndex: qa.questionIndex, fileName: qa.file?.fileName ?? 'answer' },
                { onError: (e) => toast.error(userMessageOf(e)) },
              )
            }
          >
            <Download aria-hidden className="h-4 w-4" /> {t('questionCard.downloadFile')}
          </Button>
          <span className="ml-2 text-xs text-muted">{qa.file.fileName}</span>
        </div>
      )}
      {qa.tests && (
        <div>
          <p className="text-xs font-medium uppercase tracking-wide text-muted">{t('questionCard.tests')}</p>
          <div className="mt-1">
            <QuestionTests tests={qa.tests} number={number} questionIndex={qa.questionIndex} />
          </div>
        </div>
      )}
      {task}
      {process}
      <QuestionMarking qa={qa} grade={grade} actions={actions} reasonError={reasonError} />
      {followUps}
    </Card>
  );
}
