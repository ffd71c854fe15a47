import { useLocation } from 'react-router';
import { TryAgain } from '../../../features/credentials/components/try-again.tsx';
import { CompletionCard } from '../../../features/results/components/completion-card.tsx';
import { readResultsState } from '../../../lib/navigation-state.ts';
import { CandidatePage } from '../../../lib/candidate-page.tsx';

export function ResultsRoute() {
  const result = readResultsState(useLocation().state);
  return (
    <CandidatePage>
      <CompletionCard
        result={result}
        tryAgain={result?.practice && result.attemptId ? <TryAgain attemptId={result.attemptId} /> : undefined}
      />
    </CandidatePage>
  );
}
