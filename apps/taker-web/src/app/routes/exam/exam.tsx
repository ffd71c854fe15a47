import { Spinner } from '@exam/ui/spinner';
import { lazy, Suspense } from 'react';
import { useLocation, useParams } from 'react-router';
import { ExamPage } from '../../../features/exam/components/exam-page.tsx';
import { readFullScreenRequested } from '../../../lib/navigation-state.ts';

// The workspace and assistant panels are fetched only for an exam that has them, so an exam of MCQ and
// short-answer questions shows its first question without their code (bench/README.md, "Page weight").
const WorkspacePanel = lazy(async () => ({
  default: (await import('../../../features/workspace/components/workspace-panel.tsx')).WorkspacePanel,
}));
const AssistantPanel = lazy(async () => ({
  default: (await import('../../../features/assistant/components/assistant-panel.tsx')).AssistantPanel,
}));
// The follow-up room after submit is a chunk the exam page's chunk fetches: what the two share (the timer, the save
// state) stays in the exam's chunk instead of a third one, and the exam page's first script carries none of the room.
const FollowUpScreen = lazy(async () => ({ default: (await import('./follow-up.tsx')).FollowUpScreen }));
const panelLoading = (
  <div className="flex h-full items-center justify-center">
    <Spinner />
  </div>
);

function ExamScreen({ preview }: { preview: boolean }) {
  const { examId = '' } = useParams();
  const location = useLocation();
  return (
    <ExamPage
      key={examId}
      examId={examId}
      preview={preview}
      fullScreenRequested={readFullScreenRequested(location.state)}
      renderWorkspace={(props) => (
        <Suspense fallback={panelLoading}>
          <WorkspacePanel {...props} />
        </Suspense>
      )}
      renderAssistant={(props) => (
        <Suspense fallback={panelLoading}>
          <AssistantPanel {...props} />
        </Suspense>
      )}
    />
  );
}

/** /exam/{examId}: the candidate's exam page. Composes the three features; no query flag changes who may see it. */
export function ExamRoute() {
  return <ExamScreen preview={false} />;
}

/** /exam/{examId}/preview: the creator's preview, shown only with the owner's preview token (see preview-token.ts). */
export function PreviewRoute() {
  return <ExamScreen preview />;
}

/** /exam/{examId}/follow-up: the follow-up questions after submit, then the completion page (./follow-up.tsx). */
export function FollowUpRoute() {
  return (
    <Suspense fallback={panelLoading}>
      <FollowUpScreen />
    </Suspense>
  );
}
