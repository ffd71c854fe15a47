import { useLocation } from 'react-router';
import { CompletionCard } from '../../../features/results/components/completion-card.tsx';
import { readResultsState } from '../../../lib/navigation-state.ts';

export function ResultsRoute() {
  const result = readResultsState(useLocation().state);
  return (
    <main className="flex min-h-full items-center justify-center bg-gradient-to-b from-brand-50 to-canvas px-4 py-12">
      <CompletionCard result={result} />
    </main>
  );
}
