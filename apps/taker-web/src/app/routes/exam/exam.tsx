import { useLocation, useParams, useSearchParams } from 'react-router';
import { AssistantPanel } from '../../../features/assistant/components/assistant-panel.tsx';
import { ExamPage } from '../../../features/exam/components/exam-page.tsx';
import { WorkspacePanel } from '../../../features/workspace/components/workspace-panel.tsx';
import { readFullScreenRequested } from '../../../lib/navigation-state.ts';

/** /exam/{examId}; `?creator=true` makes it a creator preview. Composes the three features. */
export function ExamRoute() {
  const { examId = '' } = useParams();
  const [search] = useSearchParams();
  const location = useLocation();
  return (
    <ExamPage
      key={examId}
      examId={examId}
      preview={search.get('creator') === 'true'}
      fullScreenRequested={readFullScreenRequested(location.state)}
      renderWorkspace={(props) => <WorkspacePanel {...props} />}
      renderAssistant={(props) => <AssistantPanel {...props} />}
    />
  );
}
