import type { QuestionAnswer } from '@exam/domain/result';
import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Textarea } from '@exam/ui/input';
import { toast } from '@exam/ui/toaster';
import { Check, Download, X } from 'lucide-react';
import { useId } from 'react';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useDownloadAnswerFile } from '../api/download-file.ts';
import type { QuestionGrade } from '../grading-state.ts';

type Props = {
  resultId: string;
  qa: QuestionAnswer;
  grade: QuestionGrade;
  onVerdict: (isCorrect: boolean) => void;
  onFeedback: (feedback: string) => void;
};

const TYPE_LABELS: Record<string, string> = {
  mcq: 'Multiple choice',
  'short-answer': 'Short answer',
  'file-upload': 'File upload',
  coding: 'Coding',
};

/** One question of 'Questions & Answers': the candidate's answer and the grader's controls. */
export function QuestionCard({ resultId, qa, grade, onVerdict, onFeedback }: Props) {
  const feedbackId = useId();
  const download = useDownloadAnswerFile();
  const number = qa.questionIndex + 1;
  const status = grade.isGraded
    ? grade.isCorrect === true
      ? 'Correct'
      : grade.isCorrect === false
        ? 'Incorrect'
        : 'Graded'
    : 'Ungraded';

  return (
    <Card
      className="flex flex-col gap-3 p-5"
      role="group"
      aria-label={`Question ${number}`}
      data-testid={`question-${qa.questionIndex}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 className="font-semibold text-ink">
            Question {number}: {qa.question || `Question ${number}`}
          </h3>
          <p className="text-xs text-muted">{TYPE_LABELS[qa.questionType] ?? qa.questionType}</p>
        </div>
        <Badge
          tone={
            status === 'Correct'
              ? 'success'
              : status === 'Incorrect'
                ? 'danger'
                : status === 'Graded'
                  ? 'brand'
                  : 'neutral'
          }
        >
          {status}
        </Badge>
      </div>
      {qa.content && <p className="whitespace-pre-wrap text-sm text-ink">{qa.content}</p>}
      {qa.options.length > 0 && (
        <ul className="list-inside list-disc text-sm text-muted">
          {qa.options.map((option) => (
            <li key={option}>{option}</li>
          ))}
        </ul>
      )}
      <div>
        <p className="text-xs font-medium uppercase tracking-wide text-muted">Answer</p>
        <pre className="mt-1 whitespace-pre-wrap break-words rounded-md bg-canvas p-3 font-sans text-sm text-ink">
          {qa.answer}
        </pre>
        {qa.correctAnswer && <p className="mt-1 text-xs text-muted">Answer key: {qa.correctAnswer}</p>}
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
            <Download aria-hidden className="h-4 w-4" /> Download File
          </Button>
          <span className="ml-2 text-xs text-muted">{qa.file.fileName}</span>
        </div>
      )}
      <div className="flex flex-wrap gap-2" role="group" aria-label={`Verdict for question ${number}`}>
        <Button
          variant={grade.isGraded && grade.isCorrect === true ? 'primary' : 'secondary'}
          size="sm"
          aria-pressed={grade.isGraded && grade.isCorrect === true}
          onClick={() => onVerdict(true)}
        >
          <Check aria-hidden className="h-4 w-4" /> Correct
        </Button>
        <Button
          variant={grade.isGraded && grade.isCorrect === false ? 'danger' : 'secondary'}
          size="sm"
          aria-pressed={grade.isGraded && grade.isCorrect === false}
          onClick={() => onVerdict(false)}
        >
          <X aria-hidden className="h-4 w-4" /> Incorrect
        </Button>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={feedbackId} className="text-sm font-medium text-ink">
          Feedback for question {number}
        </label>
        <Textarea
          id={feedbackId}
          value={grade.feedback}
          maxLength={20000}
          onChange={(e) => onFeedback(e.target.value)}
          placeholder="Optional feedback for the candidate"
        />
      </div>
    </Card>
  );
}
