import { useLocation, useParams } from 'react-router';
import { AssistantPanel } from '../../../features/assistant/components/assistant-panel.tsx';
import { ExamPage } from '../../../features/exam/components/exam-page.tsx';
import { WorkspacePanel } from '../../../features/workspace/components/workspace-panel.tsx';
import { readFullScreenRequested } from '../../../lib/navigation-state.ts';

function ExamScreen({ preview }: { preview: boolean }) {
  const { examId = '' } = useParams();
  const location = useLocation();
  return (
    <ExamPage
      key={examId}
      examId={examId}
      preview={preview}
      fullScreenRequested={readFullScreenRequested(location.state)}
      renderWorkspace={(props) => <WorkspacePanel {...props} />}
      renderAssistant={(props) => <AssistantPanel {...props} />}
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
