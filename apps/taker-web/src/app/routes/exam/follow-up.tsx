import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { FollowUpPage } from '../../../features/exam/components/follow-up-page.tsx';
import { CompletionCard } from '../../../features/results/components/completion-card.tsx';
import { CandidatePage } from '../../../lib/candidate-page.tsx';
import { readResultsState } from '../../../lib/navigation-state.ts';

/**
 * /exam/{examId}/follow-up (loaded by exam.tsx's FollowUpRoute): the follow-up questions after submit, then the completion page with the server's note
 * (done, or why they were skipped). The submit and the exam page's resume bring the submitted attempt's summary in
 * the router state; without it (a typed address) the exam page works out where the candidate belongs.
 */
export function FollowUpScreen() {
  const { examId = '' } = useParams();
  const result = readResultsState(useLocation().state);
  const navigate = useNavigate();
  useEffect(() => {
    if (!result) void navigate(paths.exam(examId), { replace: true });
  }, [result, examId, navigate]);
  if (!result) return null;
  return (
    <FollowUpPage
      key={examId}
      examId={examId}
      examTitle={result.examTitle}
      renderFinished={(note) => (
        <CandidatePage>
          <div className="flex w-full max-w-lg flex-col gap-4">
            {note && (
              <p role="status" className="rounded-lg bg-brand-50 p-3 text-center text-sm font-medium text-ink">
                {note}
              </p>
            )}
            <CompletionCard result={result} />
          </div>
        </CandidatePage>
      )}
    />
  );
}
