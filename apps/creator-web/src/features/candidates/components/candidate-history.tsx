import { CANDIDATE_HISTORY_MAX, type CandidateAttempt, type CandidateHistory } from '@exam/domain/candidate-history';
import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { PageHeader } from '@exam/ui/page-header';
import { PageSpinner } from '@exam/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { AlertTriangle, Radio, PenLine, UserX } from 'lucide-react';
import { Link } from 'react-router';
import { ScoreBadge } from '../../../components/score-badge.tsx';
import { BackToDashboard } from '../../../components/back-to-dashboard.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError, userMessageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useCandidateHistory } from '../api/get-candidate-history.ts';
import { examName } from '../../../lib/display-names.ts';

/** /creator/candidates/{candidateId}: one candidate's attempts and results across the creator's exams. */
export function CandidateHistoryPage({ candidateId }: { candidateId: string }) {
  const history = useCandidateHistory(candidateId);
  if (history.isPending) return <PageSpinner label="Loading candidate…" />;
  if (history.isError) {
    const missing = history.error instanceof ApiError && history.error.status === 404;
    return (
      <Card className="mx-auto max-w-lg">
        <EmptyState
          icon={missing ? <UserX aria-hidden /> : <AlertTriangle aria-hidden />}
          title={missing ? 'Candidate not found' : 'Could not load the candidate'}
          description={
            missing
              ? `No attempt at your exams was made with candidate ID "${candidateId}".`
              : userMessageOf(history.error)
          }
          action={<BackToDashboard />}
        />
      </Card>
    );
  }
  return <CandidateView history={history.data} />;
}

function CandidateView({ history }: { history: CandidateHistory }) {
  const { attempts } = history;
  const exams = new Set(attempts.map((a) => a.examId)).size;
  // "Counts" marks the attempt keepGrade counts, only where the candidate made more than one at the exam.
  const attemptsPerExam = new Map<string, number>();
  for (const a of attempts) attemptsPerExam.set(a.examId, (attemptsPerExam.get(a.examId) ?? 0) + 1);
  const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

  return (
    <>
      <PageHeader
        back={<BackToDashboard />}
        title={history.name.trim() || 'Anonymous'}
        description={`Candidate ID ${history.studentId} · ${plural(attempts.length, 'attempt')} at ${plural(exams, 'exam')}`}
      />
      <Card>
        <Table aria-label="Attempts and results">
          <TableHead>
            <tr>
              {['Exam', 'Attempt', 'Started', 'Submitted', 'Score', 'Action'].map((h) => (
                <TableHeaderCell key={h}>{h}</TableHeaderCell>
              ))}
            </tr>
          </TableHead>
          <TableBody>
            {attempts.map((a) => (
              <AttemptRow key={a.attemptId} attempt={a} isOneOfSeveral={(attemptsPerExam.get(a.examId) ?? 0) > 1} />
            ))}
          </TableBody>
        </Table>
        {history.truncated && (
          <p className="border-t border-line px-5 py-3 text-sm text-muted">
            Showing the newest {CANDIDATE_HISTORY_MAX} attempts.
          </p>
        )}
      </Card>
    </>
  );
}

function AttemptRow({ attempt, isOneOfSeveral }: { attempt: CandidateAttempt; isOneOfSeveral: boolean }) {
  const title = examName(attempt.examTitle);
  const { result } = attempt;
  return (
    <TableRow data-testid="candidate-attempt-row">
      <TableCell className="max-w-72 truncate font-medium" title={title}>
        {title}
      </TableCell>
      <TableCell className="whitespace-nowrap tabular-nums">
        {attempt.attemptNo}
        {isOneOfSeveral && result?.kept && (
          <Badge tone="brand" className="ml-2">
            Counts
          </Badge>
        )}
      </TableCell>
      <TableCell className="whitespace-nowrap">{formatDateTime(attempt.startedAt)}</TableCell>
      <TableCell className="whitespace-nowrap">
        {attempt.submittedAt ? formatDateTime(attempt.submittedAt) : '—'}
      </TableCell>
      <TableCell>{result ? <ScoreBadge result={result} /> : <Badge tone="neutral">In progress</Badge>}</TableCell>
      <TableCell>
        {result ? (
          <Button asChild size="sm">
            <Link to={paths.grade(attempt.examId, result.id)} aria-label={`Open Grader for ${title}`}>
              <PenLine aria-hidden className="h-4 w-4" /> Open Grader
            </Link>
          </Button>
        ) : (
          <Button asChild size="sm" variant="secondary">
            <Link to={paths.examLive(attempt.examId)} aria-label={`Live view of ${title}`}>
              <Radio aria-hidden className="h-4 w-4" /> Live view
            </Link>
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}
