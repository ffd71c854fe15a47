import type { PublicQuestion } from '@exam/domain/exam';
import { formatPoints } from '@exam/domain/grading';
import { Badge } from '@exam/ui/badge';
import { Textarea } from '@exam/ui/input';
import { RichText } from '@exam/ui/rich-text';
import { lazy, Suspense, useState } from 'react';
import { ChoiceAnswer } from './choice-answer.tsx';
import { CodingTests } from './coding-tests.tsx';
import { FileAnswer } from './file-answer.tsx';

const CodeEditor = lazy(() => import('@exam/ui/code-editor'));

type QuestionCardProps = {
  index: number;
  question: PublicQuestion;
  answer: string;
  onAnswer: (index: number, answer: string) => void;
  /** A chosen answer file: kept on this device and uploaded by the outbox; rejects when refused. */
  onFile: (index: number, file: File) => Promise<void>;
  onCommit: () => void;
  onActive: (index: number) => void;
  /** The attempt the coding questions' Run tests runs for; null in the creator's preview. */
  attempt?: { attemptId: string; token: string } | null;
};

function AnswerInput({
  index,
  question,
  answer,
  onAnswer,
  onFile,
  onCommit,
  attempt,
}: Omit<QuestionCardProps, 'onActive'>) {
  const label = `Answer for Q${index + 1}`;
  switch (question.type) {
    case 'mcq':
      return <ChoiceAnswer index={index} question={question} answer={answer} onAnswer={onAnswer} />;
    case 'short-answer':
      return (
        <Textarea
          aria-label={label}
          value={answer}
          onChange={(e) => onAnswer(index, e.target.value)}
          onBlur={onCommit}
          placeholder="Type your answer"
          rows={4}
        />
      );
    case 'file-upload':
      return (
        <FileAnswer
          questionIndex={index}
          label={`Upload file for Q${index + 1}`}
          answer={answer}
          onChoose={(file) => onFile(index, file)}
        />
      );
    case 'coding':
      return (
        <CodingAnswer
          index={index}
          question={question}
          answer={answer}
          onAnswer={onAnswer}
          onCommit={onCommit}
          attempt={attempt ?? null}
        />
      );
  }
}

/**
 * The code editor, opened on the starter code while the answer is empty. The starter code becomes the answer
 * only once the candidate edits it, so an untouched question stays unanswered, and what they typed (saved as
 * the answer) is what a reload shows.
 */
function CodingAnswer({
  index,
  question,
  answer,
  onAnswer,
  onCommit,
  attempt,
}: Pick<QuestionCardProps, 'index' | 'question' | 'answer' | 'onAnswer' | 'onCommit'> & {
  attempt: { attemptId: string; token: string } | null;
}) {
  const [edited, setEdited] = useState(answer !== '');
  const code = edited || answer !== '' ? answer : (question.starterCode ?? '');
  return (
    <>
      <Suspense fallback={<p className="text-sm text-muted">Loading editor…</p>}>
        <CodeEditor
          value={code}
          language={question.language ?? 'python'}
          label={`Code for Q${index + 1}`}
          onChange={(value) => {
            setEdited(true);
            onAnswer(index, value);
          }}
          onBlur={onCommit}
        />
      </Suspense>
      <CodingTests index={index} question={question} code={code} attempt={attempt} />
    </>
  );
}

/** "1 pt", "2 pts", "0.5 pts". */
export function pointsLabel(points: number): string {
  return `${formatPoints(points)} ${points === 1 ? 'pt' : 'pts'}`;
}

/** The element id of question `index` on the page; the submit dialog links to it. */
export const questionAnchor = (index: number) => `question-${index + 1}`;

/** One question: 'Q{n}: title', its points, its content, the input for its type and Answered/Pending. */
export function QuestionCard(props: QuestionCardProps) {
  const { index, question, answer, onActive } = props;
  const answered = answer.trim() !== '';
  return (
    <section
      id={questionAnchor(index)}
      tabIndex={-1}
      aria-labelledby={`q-${index}-title`}
      data-testid={`question-${index}`}
      className="rounded-card border border-line bg-surface p-4"
      onFocusCapture={() => onActive(index)}
      onPointerDownCapture={() => onActive(index)}
    >
      <div className="mb-2 flex items-start justify-between gap-3">
        <h3 id={`q-${index}-title`} className="text-sm font-semibold text-ink">
          Q{index + 1}: {question.title}
        </h3>
        <div className="flex shrink-0 items-center gap-2">
          <span className="text-xs text-muted" data-testid={`question-points-${index}`}>
            {pointsLabel(question.points)}
          </span>
          <Badge tone={answered ? 'success' : 'neutral'} data-testid={`question-status-${index}`}>
            {answered ? 'Answered' : 'Pending'}
          </Badge>
        </div>
      </div>
      {question.content && (
        <RichText className="mb-3 text-sm text-muted" testId={`question-content-${index}`}>
          {question.content}
        </RichText>
      )}
      <AnswerInput {...props} />
    </section>
  );
}
