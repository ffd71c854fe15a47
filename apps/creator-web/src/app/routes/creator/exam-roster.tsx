import { Button } from '@exam/ui/button';
import { PageHeader } from '@exam/ui/page-header';
import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useExam } from '../../../features/exams/api/exam-queries.ts';
import { RosterPage } from '../../../features/roster/components/roster-page.tsx';
import { examName } from '../../../lib/display-names.ts';

const ACCESS_NOTES = {
  link: 'Anyone with the exam link may start; the roster is used for invitations, reminders and result notices.',
  code: 'Candidates need the access code to start; the roster is used for invitations, reminders and result notices.',
  roster: 'Only candidates on this roster may start.',
} as const;

export function ExamRosterRoute() {
  const { examId = '' } = useParams();
  const exam = useExam(examId);
  return (
    <>
      <PageHeader
        title={`Roster${exam.data ? `: ${examName(exam.data.title)}` : ''}`}
        description={exam.data ? ACCESS_NOTES[exam.data.access] : undefined}
        back={
          <Button asChild variant="ghost" size="sm" className="-ml-3">
            <Link to={paths.dashboard}>
              <ArrowLeft aria-hidden className="h-4 w-4" /> Back to Dashboard
            </Link>
          </Button>
        }
      />
      <RosterPage examId={examId} />
    </>
  );
}
