import { useParams } from 'react-router';
import { ExamLive } from '../../../features/live/components/exam-live.tsx';

export function ExamLiveRoute() {
  const { examId = '' } = useParams();
  return <ExamLive examId={examId} />;
}
