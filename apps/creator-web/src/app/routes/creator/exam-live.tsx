import { useParams } from 'react-router';
import { ExamAccessGate } from '../../../features/exams/components/exam-access-gate.tsx';
import { ExamLive } from '../../../features/live/components/exam-live.tsx';

export function ExamLiveRoute() {
  const { examId = '' } = useParams();
  return (
    <ExamAccessGate examId={examId} capability="live:view">
      <ExamLive examId={examId} />
    </ExamAccessGate>
  );
}
