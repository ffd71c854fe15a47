import { formatPoints } from '@exam/domain/candidate-answers';
import type { PublicQuestion } from '@exam/domain/question';
import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Textarea } from '@exam/ui/input';
import { RichText } from '@exam/ui/rich-text';
import { Flag, Lock } from 'lucide-react';
import { lazy, Suspense, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnswerFiles } from '../hooks/use-answer-files.ts';
import type { LockReason } from '../lib/section-view.ts';
import type { AnswerEdit } from '../lib/answer-edits.ts';
import { useInputSource } from '../hooks/use-input-source.ts';
import { ChoiceAnswer } from './choice-answer.tsx';
import { FileAnswer } from './file-answer.tsx';
import { PracticeCheck } from './practice-check.tsx';
import { RepositoryFiles } from './repository-files.tsx';

// A coding question's answer (the language choice, the tests, the console and their requests) is a chunk of its
// own, fetched only for an exam that has one; the editor is a further chunk (bench/README.md, "Page weight").
const CodingAnswer = lazy(() => import('./coding-answer.tsx').then((m) => ({ default: m.CodingAnswer })));
// The further types' inputs are one chunk of their own, fetched only for an exam that has one.
const KindAnswer = lazy(() => import('./question-kinds.tsx').then((m) => ({ default: m.KindAnswer })));

export type QuestionCardProps = {
  index: number;
  question: PublicQuestion;
  answer: string;
  /** A change the candidate made, with how it was made (recorded as edit operations). */
  onAnswer: (index: number, answer: string, edit: AnswerEdit) => void;
  /** Answer files: chosen (kept on this device, then uploaded by the outbox), removed, and where each is. */
  files: AnswerFiles;
  onCommit: () => void;
  onActive: (index: number) => void;
  /** The attempt the coding questions' Run tests runs for; null in the creator's preview. */
  attempt?: { attemptId: string; token: string } | null;
  /** The largest answer file the server takes. */
  uploadMaxBytes: number;
  flagged: boolean;
  onToggleFlag: (index: number) => void;
  /**
   * The question's section is locked (sections.ts), and why: the answer is shown as it stands and cannot change.
   */
  locked?: LockReason | undefined;
  /** The exam's coding workspace is on: a coding question is answered in its workspace file, not on the page. */
  inWorkspace?: boolean | undefined;
};

function AnswerInput({
  index,
  question,
  answer,
  onAnswer,
  files,
  onCommit,
  attempt,
  uploadMaxBytes,
  inWorkspace,
}: Omit<QuestionCardProps, 'onActive' | 'flagged' | 'onToggleFlag' | 'locked'>) {
  switch (question.type) {
    case 'mcq':
      return <ChoiceAnswer index={index} question={question} answer={answer} onAnswer={onAnswer} />;
    case 'short-answer':
      return <ShortAnswer index={index} answer={answer} onAnswer={onAnswer} onCommit={onCommit} />;
    case 'file-upload':
      return (
        <FileAnswer
          questionIndex={index}
          answer={answer}
          status={files.status.get(index)}
          maxBytes={uploadMaxBytes}
          onChoose={(file) => files.choose(index, file)}
          onRemove={() => files.remove(index)}
        />
      );
    case 'coding':
      return (
        <LazyCodingAnswer
          index={index}
          question={question}
          answer={answer}
          onAnswer={onAnswer}
          onCommit={onCommit}
          attempt={attempt ?? null}
          inWorkspace={inWorkspace ?? false}
        />
      );
    case 'essay':
    case 'true-false':
    case 'ordering':
    case 'matching':
    case 'fill-blanks':
    case 'numeric':
    case 'calculated':
      return (
        <LazyKindAnswer index={index} question={question} answer={answer} onAnswer={onAnswer} onCommit={onCommit} />
      );
  }
}

function LazyCodingAnswer(props: ComponentProps<typeof CodingAnswer>) {
  const { t } = useTranslation('questions');
  return (
    <Suspense fallback={<p className="text-sm text-muted">{t('card.loadingAnswer')}</p>}>
      <CodingAnswer {...props} />
    </Suspense>
  );
}

function LazyKindAnswer(props: Pick<QuestionCardProps, 'index' | 'question' | 'answer' | 'onAnswer' | 'onCommit'>) {
  const { t } = useTranslation('questions');
  return (
    <Suspense fallback={<p className="text-sm text-muted">{t('card.loadingAnswer')}</p>}>
      <KindAnswer {...props} />
    </Suspense>
  );
}

/**
 * A short answer's text. The browser names each change (beforeinput's inputType: typing, a paste, an IME
 * composition…); the outbox records the difference between the old and the new value with that source, so the
 * record replays exactly whatever the browser did to the text.
 */
function ShortAnswer({
  index,
  answer,
  onAnswer,
  onCommit,
}: Pick<QuestionCardProps, 'index' | 'answer' | 'onAnswer' | 'onCommit'>) {
  const { t } = useTranslation('questions');
  const { ref, sourceOf } = useInputSource<HTMLTextAreaElement>();
  return (
    <Textarea
      ref={ref}
      aria-label={t('card.answerLabel', { number: index + 1 })}
      value={answer}
      onChange={(e) => onAnswer(index, e.target.value, { source: sourceOf(e) })}
      onBlur={onCommit}
      placeholder={t('card.answerPlaceholder')}
      rows={4}
    />
  );
}

/**
 * A locked section's answer: what the candidate gave stays readable, every control disabled (a disabled fieldset
 * disables them all); code is shown as text, since the editor has no read-only mode.
 */
function LockedAnswer(props: QuestionCardProps) {
  const { t } = useTranslation(['room', 'questions']);
  const { index, question, answer } = props;
  return (
    <>
      <p
        role="note"
        className="mb-2 flex items-start gap-1.5 rounded-md bg-slate-100 p-2 text-xs text-ink"
        data-testid="section-locked-notice"
      >
        <Lock aria-hidden className="mt-0.5 h-3.5 w-3.5 shrink-0" />
        {t(props.locked === 'time' ? 'room:sections.lockedByTime' : 'room:sections.locked')}
      </p>
      {question.type === 'coding' ? (
        <pre
          aria-label={t('questions:card.codeLabel', { number: index + 1 })}
          className="max-h-96 overflow-auto rounded-lg border border-line bg-canvas p-3 font-mono text-xs text-ink"
        >
          {answer}
        </pre>
      ) : (
        <fieldset disabled className="min-w-0 opacity-80">
          <AnswerInput {...props} onAnswer={() => undefined} onCommit={() => undefined} />
        </fieldset>
      )}
    </>
  );
}

/** The element id of question `index` on the page; the navigation and the submit dialog link to it. */
export const questionAnchor = (index: number) => `question-${index + 1}`;

/** Whether an answer counts as given (what the navigation, the header and the submit dialog count). */
export const isAnswered = (answer: string | undefined) => (answer ?? '').trim() !== '';

/**
 * One question: 'Q{n}: title', its points, Answered/Pending, its "Mark for review" toggle, its content and
 * the input for its type.
 */
export function QuestionCard(props: QuestionCardProps) {
  const { index, question, answer, onActive, flagged, onToggleFlag } = props;
  const { t } = useTranslation('questions');
  const answered = isAnswered(answer);
  return (
    <section
      id={questionAnchor(index)}
      tabIndex={-1}
      aria-labelledby={`q-${index}-title`}
      data-testid={`question-${index}`}
      className="rounded-card border border-line bg-surface p-4 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
      onFocusCapture={() => onActive(index)}
      onPointerDownCapture={() => onActive(index)}
    >
      <div className="mb-2 flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
        <h3 id={`q-${index}-title`} className="min-w-0 text-sm font-semibold text-ink">
          {t('card.title', { number: index + 1, title: question.title })}
        </h3>
        <div className="flex shrink-0 flex-wrap items-center gap-2">
          <span className="text-xs text-muted" data-testid={`question-points-${index}`}>
            {t('card.points', { count: question.points, points: formatPoints(question.points) })}
          </span>
          <Badge tone={answered ? 'success' : 'neutral'} data-testid={`question-status-${index}`}>
            {answered ? t('card.answered') : t('card.pending')}
          </Badge>
          {flagged && (
            <Badge tone="warning" data-testid={`question-flag-${index}`}>
              <Flag aria-hidden className="h-3 w-3 fill-current" />
              {t('card.forReview')}
            </Badge>
          )}
        </div>
      </div>
      {question.content && (
        <RichText className="mb-3 text-sm text-muted" testId={`question-content-${index}`}>
          {question.content}
        </RichText>
      )}
      {question.repositoryFiles && question.repositoryFiles.length > 0 && (
        <RepositoryFiles index={index} files={question.repositoryFiles} />
      )}
      {props.locked ? <LockedAnswer {...props} /> : <AnswerInput {...props} />}
      {!props.locked && <PracticeCheck index={index} answer={answer} attempt={props.attempt} />}
      <div className="mt-3 flex justify-end">
        <Button
          size="sm"
          variant="ghost"
          aria-pressed={flagged}
          onClick={() => onToggleFlag(index)}
          data-testid={`flag-toggle-${index}`}
        >
          <Flag aria-hidden className={flagged ? 'h-4 w-4 fill-current' : 'h-4 w-4'} />
          {t('card.markForReview')}
        </Button>
      </div>
    </section>
  );
}
