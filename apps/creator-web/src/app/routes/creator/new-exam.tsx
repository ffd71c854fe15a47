import { ExamForm } from '../../../features/exams/components/exam-form/exam-form.tsx';

export function NewExamRoute() {
  return <ExamForm />;
}
