import type { PublicExam } from '@exam/domain/public-exam';
import type { PublicQuestion } from '@exam/domain/question';
import { ConfirmDialog } from '@exam/ui/dialog';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { totalQuestions } from '../lib/section-view.ts';
import { isAnswered, questionAnchor } from './question-card.tsx';

type SubmitDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  exam: PublicExam;
  answers: Map<number, string>;
  /** The questions the candidate marked for review. */
  flagged: ReadonlySet<number>;
  submitting: boolean;
  onConfirm: () => void;
  /** Closes the dialog and takes the candidate to question `index`. */
  onJump: (index: number) => void;
};

type Listed = { question: PublicQuestion; index: number };

/**
 * Asks before an explicit submit (docs/product.md#sitting-an-exam, 'Submission'): how many of the questions
 * are answered, and a link to each unanswered one and each one marked for review. An alert dialog: focus
 * stays inside, Escape or Cancel goes back to the exam, only "Submit exam" submits. The timer and the
 * server's deadline never ask.
 */
export function SubmitDialog({
  open,
  onOpenChange,
  exam,
  answers,
  flagged,
  submitting,
  onConfirm,
  onJump,
}: SubmitDialogProps) {
  const { t } = useTranslation('questions');
  const jumpTo = useRef<number | null>(null);
  const listed = exam.questions.map((question, index) => ({ question, index }));
  const unanswered = listed.filter(({ index }) => !isAnswered(answers.get(index)));
  const marked = listed.filter(({ index }) => flagged.has(index));
  // With sections, the questions of sections not reached yet count too (unanswered, and not listed: not on the page).
  const total = totalQuestions(exam);
  const answered = listed.length - unanswered.length;

  const links = (label: string, heading: string, items: Listed[]) => (
    <nav aria-label={label}>
      <p className="text-sm font-medium text-ink">{heading}</p>
      <ul className="mt-2 flex max-h-40 flex-col gap-1 overflow-y-auto text-sm">
        {items.map(({ question, index }) => (
          <li key={question.id}>
            <a
              href={`#${questionAnchor(index)}`}
              className="text-brand-700 underline underline-offset-2 hover:text-brand-800"
              onClick={(event) => {
                event.preventDefault();
                jumpTo.current = index;
                onOpenChange(false);
              }}
            >
              {t('submit.link', { number: index + 1, title: question.title })}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('submit.title')}
      description={t('submit.description', { answered, total })}
      confirmLabel={submitting ? t('submit.confirming') : t('submit.confirm')}
      cancelLabel={t('submit.cancel')}
      isPending={submitting}
      onConfirm={onConfirm}
      onCloseAutoFocus={(event) => {
        if (jumpTo.current === null) return;
        // Focus goes to the chosen question, not back to the Submit button.
        event.preventDefault();
        onJump(jumpTo.current);
        jumpTo.current = null;
      }}
    >
      <div className="flex flex-col gap-4">
        {unanswered.length === 0 ? (
          <p className="text-sm text-ink">{t('submit.allAnswered')}</p>
        ) : (
          links(t('submit.unansweredNav'), t('submit.unanswered', { count: unanswered.length }), unanswered)
        )}
        {marked.length > 0 && links(t('submit.flaggedNav'), t('submit.flagged', { count: marked.length }), marked)}
      </div>
    </ConfirmDialog>
  );
}
