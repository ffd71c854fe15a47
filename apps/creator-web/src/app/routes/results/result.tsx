import { useParams } from 'react-router';
import { CollaborationPanel } from '../../../features/collaboration/components/collaboration-panel.tsx';
import { ResultDetails } from '../../../features/grading/components/result-details.tsx';
import { ResultLiveLog } from '../../../features/live/components/result-live-log.tsx';
import { ShareReportPanel } from '../../../features/reports/components/share-report-panel.tsx';

export function ResultRoute() {
  const { resultId = '' } = useParams();
  return (
    <>
      <ResultDetails resultId={resultId} />
      <CollaborationPanel resultId={resultId} />
      <ShareReportPanel resultId={resultId} />
      <ResultLiveLog resultId={resultId} />
    </>
  );
}
