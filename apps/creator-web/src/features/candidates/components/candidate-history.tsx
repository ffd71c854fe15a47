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
import { useTranslation } from 'react-i18next';

/** /creator/candidates/{candidateId}: one candidate's attempts and results across the creator's exams. */
export function CandidateHistoryPage({ candidateId }: { candidateId: string }) {
  const { t } = useTranslation('candidates');
  const history = useCandidateHistory(candidateId);
  if (history.isPending) return <PageSpinner label={t('candidateHistory.loadingCandidate')} />;
  if (history.isError) {
    const missing = history.error instanceof ApiError && history.error.status === 404;
    return (
      <Card className="mx-auto max-w-lg">
        <EmptyState
          icon={missing ? <UserX aria-hidden /> : <AlertTriangle aria-hidden />}
          title={missing ? t('candidateHistory.candidateNotFound') : t('candidateHistory.couldNotLoadThe')}
          description={missing ? t('candidateHistory.noAttemptAtYour', { candidateId }) : userMessageOf(history.error)}
          action={<BackToDashboard />}
        />
      </Card>
    );
  }
  return <CandidateView history={history.data} />;
}

function CandidateView({ history }: { history: CandidateHistory }) {
  const { t } = useTranslation('candidates');
  const { attempts } = history;
  const exams = new Set(attempts.map((a) => a.examId)).size;
  // "Counts" marks the attempt keepGrade counts, only where the candidate made more than one at the exam.
  const attemptsPerExam = new Map<string, number>();
  for (const a of attempts) attemptsPerExam.set(a.examId, (attemptsPerExam.get(a.examId) ?? 0) + 1);

  return (
    <>
      <PageHeader
        back={<BackToDashboard />}
        title={history.name.trim() || t('candidateHistory.anonymous')}
        description={t('candidateHistory.summary', {
          studentId: history.studentId,
          attempts: t('candidateHistory.attemptCount', { count: attempts.length }),
          exams: t('candidateHistory.examCount', { count: exams }),
        })}
      />
      <Card>
        <Table aria-label={t('candidateHistory.attemptsAndResults')}>
          <TableHead>
            <tr>
              {[
                t('candidateHistory.exam'),
                t('candidateHistory.attempt'),
                t('candidateHistory.started'),
                t('candidateHistory.submitted'),
                t('candidateHistory.score'),
                t('candidateHistory.action'),
              ].map((h) => (
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
            {t('candidateHistory.showingTheNewestCandidate', { CANDIDATE_HISTORY_MAX })}
          </p>
        )}
      </Card>
    </>
  );
}

function AttemptRow({ attempt, isOneOfSeveral }: { attempt: CandidateAttempt; isOneOfSeveral: boolean }) {
  const { t } = useTranslation('candidates');
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
            {t('candidateHistory.counts')}
          </Badge>
        )}
      </TableCell>
      <TableCell className="whitespace-nowrap">{formatDateTime(attempt.startedAt)}</TableCell>
      <TableCell className="whitespace-nowrap">
        {attempt.submittedAt ? formatDateTime(attempt.submittedAt) : '—'}
      </TableCell>
      <TableCell>
        {result ? <ScoreBadge result={result} /> : <Badge tone="neutral">{t('candidateHistory.inProgress')}</Badge>}
      </TableCell>
      <TableCell>
        {result ? (
          <Button asChild size="sm">
            <Link
              to={paths.grade(attempt.examId, result.id)}
              aria-label={t('candidateHistory.openGraderForTitle', { title })}
            >
              <PenLine aria-hidden className="h-4 w-4" /> {t('candidateHistory.openGrader')}
            </Link>
          </Button>
        ) : (
          <Button asChild size="sm" variant="secondary">
            <Link to={paths.examLive(attempt.examId)} aria-label={t('candidateHistory.liveViewOfTitle', { title })}>
              <Radio aria-hidden className="h-4 w-4" /> {t('candidateHistory.liveView')}
            </Link>
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}
