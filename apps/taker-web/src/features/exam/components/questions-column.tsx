import type { ReactNode } from 'react';
import { useNarrowScreen } from '../hooks/use-narrow-screen.ts';
import { panelDomId } from './panel-tabs.tsx';

/**
 * The exam body when the exam has only its questions: the one column ExamPanels would lay out, without the
 * resizable-panels library, whose chunk (exam-panels.tsx) is fetched only for an exam with a workspace or an
 * assistant. Same test ids and layout attribute as ExamPanels, so the room reads the same either way.
 */
export function QuestionsColumn({ children }: { children: ReactNode }) {
  const narrow = useNarrowScreen();
  return (
    <div className="flex min-h-0 flex-1 flex-col" data-layout={narrow ? 'tabs' : 'columns'} data-testid="exam-panels">
      <div className="flex min-h-0 flex-1 overflow-hidden">
        <div id={panelDomId('questions')} data-testid="panel-questions" className="min-w-0 flex-1 overflow-hidden">
          <div className="h-full bg-canvas">
            {/* A readable line length when the questions have the whole width. */}
            <div className="mx-auto h-full max-w-4xl">{children}</div>
          </div>
        </div>
      </div>
    </div>
  );
}
