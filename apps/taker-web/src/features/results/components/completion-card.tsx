import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { CheckCircle2 } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import type { ResultsState } from '../../../lib/navigation-state.ts';
import { ResumeCodeNote } from '../../../lib/resume-code.tsx';

/** /taker/results: the completion page. */
export function CompletionCard({ result }: { result: ResultsState | undefined }) {
  const navigate = useNavigate();
  return (
    <Card className="w-full max-w-lg p-8 text-center">
      <CheckCircle2 aria-hidden className="mx-auto h-12 w-12 text-success" />
      <h1 className="mt-4 text-2xl font-semibold text-ink">Exam Completed</h1>
      {result?.notice && (
        <p
          role="status"
          className="mt-3 rounded-lg bg-yellow-50 p-3 font-medium text-yellow-900"
          data-testid="completion-notice"
        >
          {result.notice}
        </p>
      )}
      <p className="mt-2 text-ink">Thank you for attempting this exam</p>
      <p className="mt-1 text-sm text-muted">Your answers have been submitted successfully.</p>
      {result && (
        <p className="mt-4 text-base font-medium text-ink" data-testid="answered-summary">
          {`Questions Answered: ${result.answered} of ${result.total}`}
        </p>
      )}
      <p className="mt-4 text-sm text-muted">
        Your exam has been submitted and the results will be available to your instructor.
      </p>
      {result?.attemptId && <ResumeCodeNote attemptId={result.attemptId} />}
      {result?.attemptId && (
        <p className="mt-4">
          <Link className="font-medium text-brand-600 underline" to={paths.result(result.attemptId)}>
            View your result
          </Link>
        </p>
      )}
      <Button className="mt-6" onClick={() => void navigate(paths.home)}>
        Return to Home
      </Button>
    </Card>
  );
}
