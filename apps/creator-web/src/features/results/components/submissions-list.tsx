import { formatDuration } from '@exam/domain/grading';
import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { DropdownMenu, DropdownMenuItem } from '@exam/ui/dropdown-menu';
import { EmptyState } from '@exam/ui/empty-state';
import { PageHeader } from '@exam/ui/page-header';
import { PageSpinner } from '@exam/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { toast } from '@exam/ui/toaster';
import { AlertTriangle, ArrowLeft, ChevronDown, Download, Inbox, PenLine, Send, Sheet } from 'lucide-react';
import { Link } from 'react-router';
import { ScoreBadge } from '../../../components/score-badge.tsx';
import { CandidateLink } from '../../../components/candidate-link.tsx';
import { GradeByQuestionLink } from '../../../components/grade-by-question-link.tsx';
import { paths } from '../../../config/paths.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useDownloadResultsCsv, type ResultsCsvRequest } from '../api/download-results-csv.ts';
import { useExamSummaries, useResultPages } from '../api/get-results.ts';
import { useReleaseExamResults } from '../api/release-exam-results.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { LoadMore } from './load-more.tsx';
import { BulkActionsBar } from './bulk-actions-bar.tsx';
import { SelectAllCell, SelectRowCell } from './select-cells.tsx';
import { useSelection } from '../hooks/use-selection.ts';
import { useTranslation } from 'react-i18next';

/**
 * /creator/exam-insights/{examId}/submissions: the exam's candidates, newest first, each
 * with a way to the grader. The server pages them ('Load more'); the count comes from the exam's summary
 * so it covers every submission, and the CSV is exported on the server with every row.
 */
export function SubmissionsList({
  examId,
  canRelease = true,
  canOpenInsights = true,
}: {
  examId: string;
  /** Whether the creator's role releases results (a grader only when the owner allowed it); the server checks too. */
  canRelease?: boolean;
  /** Whether the creator's role reads the exam's insights, where the way back leads. */
  canOpenInsights?: boolean;
}) {
  const { t } = useTranslation('results');
  const results = useResultPages({ examId });
  const summaries = useExamSummaries();
  const csv = useDownloadResultsCsv();
  const release = useReleaseExamResults();
  const submissions = results.results ?? [];
  const selection = useSelection(submissions.map((r) => r.id));
  const total =
    summaries.data?.find((exam) => exam.examId === examId)?.submitted ??
    (results.hasNextPage ? undefined : submissions.length);

  const downloadCsv = (request: Omit<ResultsCsvRequest, 'examId'> = {}) =>
    csv.mutate(
      { examId, ...request },
      {
        onSuccess: (fileName) => toast.success(t('submissionsList.downloadedFilename', { fileName })),
        onError: (error) => toast.error(userMessageOf(error)),
      },
    );

  const releaseGraded = () =>
    release.mutate(examId, {
      onSuccess: (report) =>
        toast.success(t('submissionsList.releasedChangedResults', { changed: report.changed }), {
          description:
            report.pending > 0
              ? t('submissionsList.pendingStillAwaitingGrading', { pending: report.pending })
              : undefined,
        }),
      onError: (error) => toast.error(userMessageOf(error)),
    });

  return (
    <>
      <PageHeader
        back={
          canOpenInsights ? (
            <Button asChild variant="ghost" size="sm">
              <Link to={paths.examInsights(examId)}>
                <ArrowLeft aria-hidden className="h-4 w-4" /> {t('submissionsList.backToInsights')}
              </Link>
            </Button>
          ) : undefined
        }
        title={
          <span className="flex items-center gap-3">
            {t('submissionsList.candidateSubmissions')}
            {results.isSuccess && total !== undefined && (
              <Badge tone="brand" aria-label={t('submissionsList.totalSubmissions', { total })}>
                {total}
              </Badge>
            )}
          </span>
        }
        actions={
          <>
            <GradeByQuestionLink examId={examId} />
            {canRelease && (
              <Button variant="secondary" onClick={releaseGraded} disabled={release.isPending}>
                <Send aria-hidden className="h-4 w-4" /> {t('submissionsList.releaseGradedResults')}
              </Button>
            )}
            <Button variant="secondary" onClick={() => downloadCsv()} disabled={csv.isPending}>
              <Download aria-hidden className="h-4 w-4" />{' '}
              {csv.isPending ? t('submissionsList.downloading') : t('submissionsList.downloadCsv')}
            </Button>
            {/* The gradebook: one row per candidate with points under the questions' titles (docs/product.md). */}
            <DropdownMenu
              trigger={
                <Button variant="secondary" disabled={csv.isPending}>
                  <Sheet aria-hidden className="h-4 w-4" /> {t('submissionsList.gradebook')}
                  <ChevronDown aria-hidden className="h-4 w-4" />
                </Button>
              }
            >
              <DropdownMenuItem onSelect={() => downloadCsv({ format: 'gradebook' })}>
                {t('submissionsList.gradebookCsv')}
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => downloadCsv({ format: 'gradebook', forExcel: true })}>
                {t('submissionsList.gradebookExcel')}
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => downloadCsv({ forExcel: true })}>
                {t('submissionsList.fullExcel')}
              </DropdownMenuItem>
            </DropdownMenu>
          </>
        }
      />
      {results.isPending ? (
        <PageSpinner label={t('submissionsList.loadingSubmissions')} />
      ) : results.isError && submissions.length === 0 ? (
        <Card>
          <EmptyState
            icon={<AlertTriangle aria-hidden />}
            title={t('submissionsList.couldNotLoadSubmissions')}
            description={userMessageOf(results.error)}
            action={
              <Button variant="secondary" onClick={() => void results.refetch()}>
                {t('submissionsList.tryAgain')}
              </Button>
            }
          />
        </Card>
      ) : submissions.length === 0 ? (
        <Card>
          <EmptyState icon={<Inbox aria-hidden />} title={t('submissionsList.noSubmissionsFoundFor')} />
        </Card>
      ) : (
        <Card>
          <BulkActionsBar selection={selection} />
          <Table aria-label={t('submissionsList.candidateSubmissions')}>
            <TableHead>
              <tr>
                <SelectAllCell selection={selection} />
                {[
                  t('submissionsList.name'),
                  t('submissionsList.studentId'),
                  t('submissionsList.submitted'),
                  t('submissionsList.timeSpent'),
                  t('submissionsList.score'),
                  t('submissionsList.action'),
                ].map((h) => (
                  <TableHeaderCell key={h}>{h}</TableHeaderCell>
                ))}
              </tr>
            </TableHead>
            <TableBody>
              {submissions.map((r) => {
                const name = r.userName.trim() || t('submissionsList.anonymous');
                return (
                  <TableRow key={r.id} data-testid="submission-row">
                    <SelectRowCell selection={selection} id={r.id} name={name} />
                    <TableCell className="font-medium">
                      <CandidateLink studentId={r.studentId}>{name}</CandidateLink>
                    </TableCell>
                    <TableCell>{r.studentId || 'N/A'}</TableCell>
                    <TableCell className="whitespace-nowrap">{formatDateTime(r.completedAt)}</TableCell>
                    <TableCell className="tabular-nums">{formatDuration(r.timeSpent)}</TableCell>
                    <TableCell>
                      <ScoreBadge result={r} />
                    </TableCell>
                    <TableCell>
                      <Button asChild size="sm">
                        <Link
                          to={paths.grade(examId, r.id)}
                          aria-label={t('submissionsList.openGraderForName', { name })}
                        >
                          <PenLine aria-hidden className="h-4 w-4" /> {t('submissionsList.openGrader')}
                        </Link>
                      </Button>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
          <LoadMore shown={submissions.length} pages={results} noun="submissions" />
        </Card>
      )}
    </>
  );
}
