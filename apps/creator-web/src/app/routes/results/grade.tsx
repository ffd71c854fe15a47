import { useParams } from 'react-router';
import { Grader } from '../../../features/grading/components/grader.tsx';

export function GradeRoute() {
  const { examId = '', candidateId = '' } = useParams();
  return <Grader examId={examId} candidateId={candidateId} />;
}
