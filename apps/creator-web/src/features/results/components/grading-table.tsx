import { formatDuration } from '@exam/domain/grading';
import type { ResultSummary } from '@exam/domain/result';
import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card, CardHeader } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { Input } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { Skeleton } from '@exam/ui/spinner';
import { AlertTriangle, Eye, Inbox, Search } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ScoreBadge } from '../../../components/score-badge.tsx';
import { CandidateLink } from '../../../components/candidate-link.tsx';
import { LmsSyncChip } from '../../../components/lms-sync-chip.tsx';
import { paths } from '../../../config/paths.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import type { ResultFilters } from '../../../lib/results-api.ts';
import { useResultPages } from '../api/get-results.ts';
import { useDebouncedValue } from '../hooks/use-debounced-value.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { LoadMore } from './load-more.tsx';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../i18n/index.ts';

export const RESULT_FILTERS = [
  { value: 'all', label: 'gradingTable.filter.all' },
  // 'Graded' is every result whose status is graded or released; 'Not Graded' the ones still pending.
  { value: 'graded', label: 'gradingTable.filter.graded' },
  { value: 'not-graded', label: 'gradingTable.filter.notGraded' },
] as const;
export const RESULT_SORTS = [
  { value: 'recent', label: 'gradingTable.sort.recent' },
  { value: 'name', label: 'gradingTable.sort.name' },
  { value: 'exam', label: 'gradingTable.sort.exam' },
  { value: 'score', label: 'gradingTable.sort.score' },
] as const;
type Filter = (typeof RESULT_FILTERS)[number]['value'];
type Sort = (typeof RESULT_SORTS)[number]['value'];

const nameOf = (r: ResultSummary) => r.userName.trim() || i18n.t('results:anonymous');

const comparators: Record<Sort, (a: ResultSummary, b: ResultSummary) => number> = {
  recent: (a, b) => Date.parse(b.completedAt) - Date.parse(a.completedAt),
  name: (a, b) => nameOf(a).localeCompare(nameOf(b)),
  exam: (a, b) => a.examTitle.localeCompare(b.examTitle),
  // Highest percentage first (the server's own figure); results awaiting grading after the graded ones.
  score: (a, b) => Number(a.status === 'pending') - Number(b.status === 'pending') || b.percentage - a.percentage,
};

/** The loaded results in the chosen order; the server already applied the search and the filter. */
export function sortResults(results: ResultSummary[], sort: Sort): ResultSummary[] {
  return [...results].sort((a, b) => comparators[sort](a, b) || Date.parse(b.completedAt) - Date.parse(a.completedAt));
}

const SEARCH_PAUSE_MS = 300;

/**
 * The Results tab's grading list. Search and the graded filter go to the server, which
 * pages the matches newest first ('Load more'); the sort orders the results loaded so far.
 */
export function GradingTable() {
  const { t } = useTranslation('results');
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<Filter>('all');
  const [sort, setSort] = useState<Sort>('recent');
  const settledSearch = useDebouncedValue(search.trim(), SEARCH_PAUSE_MS);
  const filters: ResultFilters = {
    ...(filter === 'all' ? {} : { graded: filter === 'graded' ? 'true' : 'false' }),
    ...(settledSearch ? { search: settledSearch } : {}),
  };
  const pages = useResultPages(filters);
  const loaded = pages.results;
  const rows = useMemo(() => sortResults(loaded ?? [], sort), [loaded, sort]);
  const narrowed = filter !== 'all' || settledSearch !== '';

  return (
    <Card>
      <CardHeader title={t('gradingTable.examGrading')} description={t('gradingTable.everySubmissionOfYour')} />
      <div className="flex flex-wrap items-center gap-3 border-b border-line px-5 py-3">
        <div className="relative min-w-56 flex-1">
          <Search
            aria-hidden
            className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted"
          />
          <Input
            type="search"
            className="pl-9"
            placeholder={t('gradingTable.searchStudentsIdsOr')}
            aria-label={t('gradingTable.searchResults')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <Select
          aria-label={t('gradingTable.filterResults')}
          className="w-40"
          value={filter}
          onValueChange={(v) => setFilter(v as Filter)}
          options={RESULT_FILTERS.map((o) => ({ value: o.value, label: t(o.label) }))}
        />
        <Select
          aria-label={t('gradingTable.sortResults')}
          className="w-36"
          value={sort}
          onValueChange={(v) => setSort(v as Sort)}
          options={RESULT_SORTS.map((o) => ({ value: o.value, label: t(o.label) }))}
        />
      </div>
      {pages.isPending ? (
        <div className="p-5" aria-busy="true" aria-label={t('gradingTable.loadingResults')}>
          <Skeleton className="h-40" />
        </div>
      ) : pages.isError && !loaded ? (
        <EmptyState
          icon={<AlertTriangle aria-hidden />}
          title={t('gradingTable.couldNotLoadResults')}
          description={userMessageOf(pages.error)}
          action={
            <Button variant="secondary" onClick={() => void pages.refetch()}>
              {t('gradingTable.tryAgain')}
            </Button>
          }
        />
      ) : rows.length === 0 ? (
        <EmptyState
          icon={<Inbox aria-hidden />}
          title={narrowed ? t('gradingTable.noResultsMatchYour') : t('gradingTable.noResultsYet')}
        />
      ) : (
        <>
          <Table aria-label={t('gradingTable.examGrading')}>
            <TableHead>
              <tr>
                {[
                  t('gradingTable.student'),
                  t('gradingTable.studentId'),
                  t('gradingTable.exam'),
                  t('gradingTable.score'),
                  t('gradingTable.completion'),
                  t('gradingTable.timeSpent'),
                  t('gradingTable.submitted'),
                ].map((h) => (
                  <TableHeaderCell key={h}>{h}</TableHeaderCell>
                ))}
                <TableHeaderCell className="text-right">{t('gradingTable.actions')}</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.id} data-testid="grading-row">
                  <TableCell className="font-medium">
                    <CandidateLink studentId={r.studentId}>{nameOf(r)}</CandidateLink>
                  </TableCell>
                  <TableCell>{r.studentId || 'N/A'}</TableCell>
                  <TableCell>{r.examTitle}</TableCell>
                  <TableCell>
                    <span className="inline-flex flex-col items-start gap-1">
                      <ScoreBadge result={r} />
                      {r.practice && (
                        <Badge tone="neutral" title={t('gradingTable.practiceHint')} data-testid="practice-badge">
                          {t('gradingTable.practice')}
                        </Badge>
                      )}
                      {r.lmsSync && <LmsSyncChip resultId={r.id} sync={r.lmsSync} candidate={nameOf(r)} />}
                    </span>
                  </TableCell>
                  <TableCell className="tabular-nums">
                    {r.answeredCount}/{r.totalQuestions}
                  </TableCell>
                  <TableCell className="tabular-nums">{formatDuration(r.timeSpent)}</TableCell>
                  <TableCell className="whitespace-nowrap">{formatDateTime(r.completedAt)}</TableCell>
                  <TableCell className="text-right">
                    <Button asChild variant="secondary" size="sm">
                      <Link
                        to={paths.result(r.id)}
                        aria-label={t('gradingTable.viewResultOfNameof', { name: nameOf(r) })}
                      >
                        <Eye aria-hidden className="h-4 w-4" /> {t('gradingTable.view')}
                      </Link>
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {sort !== 'recent' && pages.hasNextPage && (
            <p className="px-5 pt-3 text-xs text-muted">{t('gradingTable.sortedWithinTheResults')}</p>
          )}
          <LoadMore shown={rows.length} pages={pages} noun="results" />
        </>
      )}
    </Card>
  );
}
