import { useParams } from 'react-router';
import { AccommodationsPage } from '../../../features/accommodations/components/accommodations-page.tsx';
import { ExamAccessGate } from '../../../features/exams/components/exam-access-gate.tsx';

export function ExamAccommodationsRoute() {
  const { examId = '' } = useParams();
  return (
    <ExamAccessGate examId={examId} capability="live:control">
      <AccommodationsPage examId={examId} />
    </ExamAccessGate>
  );
}
