import { useParams } from 'react-router';
import { ExamAccessGate } from '../../../features/exams/components/exam-access-gate.tsx';
import { QuestionGrader } from '../../../features/question-grading/components/question-grader.tsx';

export function GradeQuestionRoute() {
  const { examId = '', questionNumber = '' } = useParams();
  return (
    <ExamAccessGate examId={examId} capability="results:grade">
      <QuestionGrader examId={examId} questionNumber={questionNumber} />
    </ExamAccessGate>
  );
}
