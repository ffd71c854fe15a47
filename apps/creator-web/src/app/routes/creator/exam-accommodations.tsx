import { useParams } from 'react-router';
import { AccommodationsPage } from '../../../features/accommodations/components/accommodations-page.tsx';

export function ExamAccommodationsRoute() {
  const { examId = '' } = useParams();
  return <AccommodationsPage examId={examId} />;
}
