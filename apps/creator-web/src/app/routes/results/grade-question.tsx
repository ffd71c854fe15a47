import { useParams } from 'react-router';
import { QuestionGrader } from '../../../features/question-grading/components/question-grader.tsx';

export function GradeQuestionRoute() {
  const { examId = '', questionNumber = '' } = useParams();
  return <QuestionGrader examId={examId} questionNumber={questionNumber} />;
}
