import type { PublicExam } from '@exam/domain/exam';
import { ConfirmDialog } from '@exam/ui/dialog';
import { useRef } from 'react';
import { questionAnchor } from './question-card.tsx';

type SubmitDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  exam: PublicExam;
  answers: Map<number, string>;
  submitting: boolean;
  onConfirm: () => void;
  /** Closes the dialog and takes the candidate to question `index`. */
  onJump: (index: number) => void;
};

/**
 * Asks before an explicit submit (docs/product.md#sitting-an-exam, 'Submission'): how many of the questions
 * are answered, and a link to each unanswered one. An alert dialog: focus stays inside, Escape or Cancel
 * goes back to the exam, only "Submit exam" submits. The timer and the server's deadline never ask.
 */
export function SubmitDialog({ open, onOpenChange, exam, answers, submitting, onConfirm, onJump }: SubmitDialogProps) {
  const jumpTo = useRef<number | null>(null);
  const unanswered = exam.questions
    .map((question, index) => ({ question, index }))
    .filter(({ index }) => (answers.get(index) ?? '').trim() === '');
  const total = exam.questions.length;
  const answered = total - unanswered.length;

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Submit exam?"
      description={`You have answered ${answered} of ${total} questions. You cannot change your answers after submitting.`}
      confirmLabel={submitting ? 'Submitting…' : 'Submit exam'}
      cancelLabel="Keep working"
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
      {unanswered.length === 0 ? (
        <p className="text-sm text-ink">Every question has an answer.</p>
      ) : (
        <nav aria-label="Unanswered questions">
          <p className="text-sm font-medium text-ink">
            {unanswered.length === 1 ? '1 question is' : `${unanswered.length} questions are`} unanswered:
          </p>
          <ul className="mt-2 flex max-h-48 flex-col gap-1 overflow-y-auto text-sm">
            {unanswered.map(({ question, index }) => (
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
                  Q{index + 1}: {question.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </ConfirmDialog>
  );
}
