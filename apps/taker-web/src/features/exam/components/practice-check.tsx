import { createContext, lazy, Suspense, useContext } from 'react';

/** Whether the exam on the page is a practice exam whose answers can be checked (never in the creator's preview). */
export const PracticeContext = createContext(false);

// Loaded only in a practice exam: a real exam's page carries none of it (.size-limit.js, the exam page's budget).
const PracticeCheckPanel = lazy(async () => ({
  default: (await import('./practice-check-panel.tsx')).PracticeCheckPanel,
}));

/**
 * A practice exam's Check answer under a question's input (docs/product.md#practice-and-review); nothing in any
 * other exam or in the creator's preview.
 */
export function PracticeCheck({
  index,
  answer,
  attempt,
}: {
  index: number;
  answer: string;
  attempt?: { attemptId: string; token: string } | null | undefined;
}) {
  const practice = useContext(PracticeContext);
  if (!practice || !attempt) return null;
  return (
    <Suspense fallback={null}>
      <PracticeCheckPanel index={index} answer={answer} attempt={attempt} />
    </Suspense>
  );
}
