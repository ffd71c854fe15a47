import type { PublicPassage } from '@exam/domain/passages';
import { lazy, Suspense, type ReactNode } from 'react';

const PassageAside = lazy(() => import('./question-kinds.tsx').then((m) => ({ default: m.PassageAside })));

type PassageGroupProps = {
  passage: PublicPassage;
  /** The questions (0-based indexes) shown beside it. */
  questions: readonly number[];
  children: ReactNode;
};

/**
 * A passage and the questions that share it: the passage in a side column that stays in view while they scroll
 * when the questions' column is wide enough (a container query: the column narrows when the assistant or the
 * workspace is open), above them otherwise. A folded passage gives its width back to the questions.
 */
export function PassageGroup({ passage, questions, children }: PassageGroupProps) {
  return (
    <div className="@container" data-testid="passage-group">
      <div className="flex flex-col gap-4 @3xl:flex-row @3xl:items-start">
        <div className="min-w-0 @3xl:sticky @3xl:top-[calc(var(--questions-nav-height,0px)+0.5rem)] @3xl:w-2/5 @3xl:shrink-0 @3xl:has-[[data-open=false]]:w-56">
          <Suspense fallback={null}>
            <PassageAside passage={passage} questions={questions} />
          </Suspense>
        </div>
        <div className="min-w-0 flex-1">{children}</div>
      </div>
    </div>
  );
}
