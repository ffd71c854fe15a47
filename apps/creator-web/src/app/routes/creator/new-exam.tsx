import { TestAssistant } from '../../../features/assistant-test/components/test-assistant.tsx';
import { ExamForm } from '../../../features/exams/components/exam-form/exam-form.tsx';

export function NewExamRoute() {
  return <ExamForm renderTestAssistant={(props) => <TestAssistant {...props} />} />;
}
