import { useParams } from 'react-router';
import { ExamInsights } from '../../../features/insights/components/exam-insights.tsx';

export function ExamInsightsRoute() {
  const { examId = '' } = useParams();
  return <ExamInsights examId={examId} />;
}
