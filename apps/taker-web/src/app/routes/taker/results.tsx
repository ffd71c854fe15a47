import { useLocation } from 'react-router';
import { CompletionCard } from '../../../features/results/components/completion-card.tsx';
import { readResultsState } from '../../../lib/navigation-state.ts';
import { CandidatePage } from '../../../lib/candidate-page.tsx';

export function ResultsRoute() {
  const result = readResultsState(useLocation().state);
  return (
    <CandidatePage>
      <CompletionCard result={result} />
    </CandidatePage>
  );
}
