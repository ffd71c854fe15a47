import { useParams } from 'react-router';
import { ExamAccessGate } from '../../../features/exams/components/exam-access-gate.tsx';
import { ExamInsights } from '../../../features/insights/components/exam-insights.tsx';
import { GradingAgreementSection } from '../../../features/question-grading/components/grading-agreement-section.tsx';

export function ExamInsightsRoute() {
  const { examId = '' } = useParams();
  return (
    <ExamAccessGate examId={examId} capability="insights:read">
      <ExamInsights examId={examId}>
        <GradingAgreementSection examId={examId} />
      </ExamInsights>
    </ExamAccessGate>
  );
}
