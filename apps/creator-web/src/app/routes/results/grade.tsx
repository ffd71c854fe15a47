import { useParams } from 'react-router';
import { ExamAccessGate } from '../../../features/exams/components/exam-access-gate.tsx';
import { Grader } from '../../../features/grading/components/grader.tsx';

export function GradeRoute() {
  const { examId = '', candidateId = '' } = useParams();
  return (
    <ExamAccessGate examId={examId} capability="results:grade">
      <Grader examId={examId} candidateId={candidateId} />
    </ExamAccessGate>
  );
}
