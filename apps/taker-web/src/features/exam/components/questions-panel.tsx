import type { PublicExam } from '@exam/domain/exam';
import { RichText } from '@exam/ui/rich-text';
import type { MouseEvent } from 'react';
import { QuestionCard } from './question-card.tsx';

type QuestionsPanelProps = {
  exam: PublicExam;
  answers: Map<number, string>;
  onAnswer: (index: number, answer: string) => void;
  onFile: (index: number, file: File) => Promise<void>;
  onCommit: () => void;
  onActive: (index: number) => void;
  attempt: { attemptId: string; token: string } | null;
};

const EDITABLE = 'input, textarea, select, [contenteditable="true"], .cm-editor';

/** Text selection and the context menu are disabled here (docs/product.md#proctoring-and-integrity), except inside inputs and editors. */
function blockContextMenu(event: MouseEvent) {
  if (event.target instanceof Element && event.target.closest(EDITABLE)) return;
  event.preventDefault();
}

export function QuestionsPanel({ exam, answers, ...handlers }: QuestionsPanelProps) {
  return (
    <div
      className="h-full select-none overflow-y-auto bg-canvas p-4 [&_.cm-editor]:select-text [&_input]:select-text [&_textarea]:select-text"
      onContextMenu={blockContextMenu}
      data-testid="questions-panel"
    >
      {(exam.header || exam.description) && (
        <div className="mb-4 text-sm text-muted">
          {exam.header && <p className="font-medium text-ink">{exam.header}</p>}
          {exam.description && <RichText className="mt-1">{exam.description}</RichText>}
        </div>
      )}
      <ol className="flex flex-col gap-4">
        {exam.questions.map((question, index) => (
          <li key={question.id}>
            <QuestionCard index={index} question={question} answer={answers.get(index) ?? ''} {...handlers} />
          </li>
        ))}
      </ol>
    </div>
  );
}
