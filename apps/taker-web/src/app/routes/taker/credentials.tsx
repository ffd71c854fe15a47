import { Navigate, useLocation } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { CredentialsForm } from '../../../features/credentials/components/credentials-form.tsx';
import { useExamWindow } from '../../../features/start/api/get-exam-window.ts';
import { Briefing } from '../../../features/start/components/briefing.tsx';
import { ExamWindowNotice } from '../../../features/start/components/exam-window-notice.tsx';
import { readCredentialsState } from '../../../lib/navigation-state.ts';
import { CandidatePage } from '../../../lib/candidate-page.tsx';

/** The details form with the exam's window above it, then the candidate's briefing before Start. */
function Credentials({ exam }: { exam: NonNullable<ReturnType<typeof readCredentialsState>> }) {
  const window = useExamWindow(exam.examId);
  return (
    <CredentialsForm
      exam={exam}
      windowNotice={<ExamWindowNotice window={window} />}
      renderBriefing={(slot) => <Briefing {...slot} />}
    />
  );
}

export function CredentialsRoute() {
  const exam = readCredentialsState(useLocation().state);
  // Without an exam id in the navigation state (a bookmark, a reload) the candidate goes back to URL entry.
  if (!exam) return <Navigate to={paths.start} replace />;
  return (
    <CandidatePage>
      <Credentials exam={exam} />
    </CandidatePage>
  );
}
