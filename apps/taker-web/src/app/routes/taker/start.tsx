import { ExamUrlForm } from '../../../features/start/components/exam-url-form.tsx';
import { CandidatePage } from '../../../lib/candidate-page.tsx';

export function StartRoute() {
  return (
    <CandidatePage>
      <ExamUrlForm />
    </CandidatePage>
  );
}
