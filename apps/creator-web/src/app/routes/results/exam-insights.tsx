import { useParams } from 'react-router';
import { ExamInsights } from '../../../features/insights/components/exam-insights.tsx';
import { GradingAgreementSection } from '../../../features/question-grading/components/grading-agreement-section.tsx';

export function ExamInsightsRoute() {
  const { examId = '' } = useParams();
  return (
    <ExamInsights examId={examId}>
      <GradingAgreementSection examId={examId} />
    </ExamInsights>
  );
}
