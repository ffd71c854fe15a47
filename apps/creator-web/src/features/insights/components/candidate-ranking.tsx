import type { InsightsCandidate, InsightsReport, RangeBadgeValue } from '@exam/domain/insights';
import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card, CardHeader } from '@exam/ui/card';
import { DropdownMenu, DropdownMenuItem } from '@exam/ui/dropdown-menu';
import { EmptyState } from '@exam/ui/empty-state';
import { Input } from '@exam/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { ArrowDown, ArrowDownUp, ArrowUp, ExternalLink, Search, Users } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ScoreBadge } from '../../../components/score-badge.tsx';
import { CandidateLink } from '../../../components/candidate-link.tsx';
import { paths } from '../../../config/paths.ts';
import { DEFAULT_SORT, nextSort, pageOf, selectCandidates, SORT_KEYS, type SortState } from '../ranking.ts';
import { Figure, formats } from './figure.tsx';
import { MeasureLabel, type Measure } from './measure-label.tsx';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';

const BADGES: Record<RangeBadgeValue, { text: ParseKeys<'insights'>; tone: 'success' | 'info' | 'danger' }> = {
  above: { text: 'candidateRanking.badge.above', tone: 'success' },
  in: { text: 'candidateRanking.badge.in', tone: 'info' },
  below: { text: 'candidateRanking.badge.below', tone: 'danger' },
};

type Field = 'rawScore' | 'ability' | 'reasoning';
/** What each figure column is (measure-label.tsx): the column's name and its explanation. */
const MEASURE_OF: Record<Field, Measure> = { rawScore: 'itemsCorrect', ability: 'irtAbility', reasoning: 'reasoning' };

/** Candidate Ranking: search, the sort menu and real paging of ten. */
export function CandidateRanking({ report }: { report: InsightsReport }) {
  const { t } = useTranslation('insights');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortState>(DEFAULT_SORT);
  const [page, setPage] = useState(1);
  const rows = useMemo(() => selectCandidates(report.candidates, search, sort), [report.candidates, search, sort]);
  const view = pageOf(rows, page);

  return (
    <Card>
      <CardHeader
        title={t('candidateRanking.candidateRanking')}
        description={t('candidateRanking.rankedByScore')}
        actions={
          <SortMenu
            sort={sort}
            onSelect={(key) => {
              setSort((current) => nextSort(current, key));
              setPage(1);
            }}
          />
        }
      />
      <div className="border-b border-line px-5 py-3">
        <div className="relative max-w-sm">
          <Search
            aria-hidden
            className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted"
          />
          <Input
            type="search"
            className="pl-9"
            placeholder={t('candidateRanking.searchCandidates')}
            aria-label={t('candidateRanking.searchCandidates2')}
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
          />
        </div>
      </div>
      <div className="h-[500px] overflow-y-auto" data-testid="ranking-scroll">
        {view.items.length === 0 ? (
          <EmptyState
            icon={<Users aria-hidden />}
            title={
              report.candidates.length === 0
                ? t('candidateRanking.noSubmissionsYet')
                : t('candidateRanking.noCandidatesMatchYour')
            }
          />
        ) : (
          <RankingTable candidates={view.items} report={report} />
        )}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-line px-5 py-3 text-sm">
        <p aria-live="polite" className="text-muted">
          {t('candidateRanking.showingFromToTo', { from: view.from, to: view.to, total: view.total })}
        </p>
        <div className="flex gap-2">
          <Button variant="secondary" size="sm" disabled={view.page <= 1} onClick={() => setPage(view.page - 1)}>
            {t('candidateRanking.previous')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={view.page >= view.pages}
            onClick={() => setPage(view.page + 1)}
          >
            {t('candidateRanking.next')}
          </Button>
        </div>
      </div>
    </Card>
  );
}

/** The sort menu: choosing the key in use flips its direction. */
function SortMenu({ sort, onSelect }: { sort: SortState; onSelect: (key: SortState['key']) => void }) {
  const { t } = useTranslation('insights');
  const sortKey = SORT_KEYS.find((s) => s.key === sort.key);
  const sortLabel = sortKey ? t(sortKey.label) : t('candidateRanking.rank');
  return (
    <DropdownMenu
      trigger={
        <Button
          variant="secondary"
          size="sm"
          aria-label={t(
            sort.direction === 'asc' ? 'candidateRanking.sortByAscending' : 'candidateRanking.sortByDescending',
            { sortLabel },
          )}
        >
          <ArrowDownUp aria-hidden className="h-4 w-4" /> {t('candidateRanking.sortSortlabel', { sortLabel })}
          {sort.direction === 'asc' ? (
            <ArrowUp aria-hidden className="h-3 w-3" />
          ) : (
            <ArrowDown aria-hidden className="h-3 w-3" />
          )}
        </Button>
      }
    >
      {SORT_KEYS.map((s) => (
        <DropdownMenuItem key={s.key} onSelect={() => onSelect(s.key)}>
          {t(s.label)}
          {sort.key === s.key && (
            <span className="ml-auto text-xs text-muted">
              {sort.direction === 'asc' ? t('candidateRanking.ascending') : t('candidateRanking.descending')}
            </span>
          )}
        </DropdownMenuItem>
      ))}
    </DropdownMenu>
  );
}

function RankingTable({ candidates, report }: { candidates: InsightsCandidate[]; report: InsightsReport }) {
  const { t } = useTranslation('insights');
  return (
    <Table aria-label={t('candidateRanking.candidateRanking')}>
      <TableHead className="sticky top-0 bg-surface">
        <tr>
          <TableHeaderCell>
            <MeasureLabel measure="rank" />
          </TableHeaderCell>
          <TableHeaderCell>{t('candidateRanking.name')}</TableHeaderCell>
          <TableHeaderCell>{t('ranking.id')}</TableHeaderCell>
          {(['score', 'itemsCorrect', 'irtAbility', 'reasoning'] as const).map((measure) => (
            <TableHeaderCell key={measure}>
              <MeasureLabel measure={measure} />
            </TableHeaderCell>
          ))}
          <TableHeaderCell className="text-right">{t('candidateRanking.actions')}</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody>
        {candidates.map((c) => (
          <TableRow key={c.resultId} data-testid="ranking-row">
            <TableCell className="tabular-nums">
              <Figure value={c.rank} format={formats.count} explanation={t('measures.rank.help')} />
            </TableCell>
            <TableCell className="font-medium">
              <CandidateLink studentId={c.studentId}>{c.name || t('candidateRanking.anonymous')}</CandidateLink>
            </TableCell>
            <TableCell className="whitespace-nowrap">{c.studentId || 'N/A'}</TableCell>
            <TableCell>{c.result ? <ScoreBadge result={c.result} /> : '—'}</TableCell>
            <TableCell>
              <ScoreCell candidate={c} field="rawScore" report={report} />
            </TableCell>
            <TableCell>
              <ScoreCell candidate={c} field="ability" report={report} />
            </TableCell>
            <TableCell>
              <ScoreCell candidate={c} field="reasoning" report={report} />
            </TableCell>
            <TableCell className="text-right">
              <Button asChild variant="ghost" size="sm">
                <Link
                  to={paths.result(c.resultId)}
                  aria-label={t('candidateRanking.openResultOf', { name: c.name || t('candidateRanking.anonymous') })}
                >
                  <ExternalLink aria-hidden className="h-4 w-4" /> {t('candidateRanking.open')}
                </Link>
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** A candidate's figure with its explanation, and the range badge when it has one. */
function ScoreCell({
  candidate,
  field,
  report,
}: {
  candidate: InsightsCandidate;
  field: Field;
  report: InsightsReport;
}) {
  const { t } = useTranslation('insights');
  const { explanations, reasons } = report;
  const badge = candidate.badges[field];
  const explanation = t(`measures.${MEASURE_OF[field]}.help`);
  return (
    <div className="flex items-center gap-2">
      <Figure
        value={field === 'ability' ? candidate.abilityScore : candidate[field]}
        explanation={explanation}
        reason={reasons[`candidates.${candidate.resultId}.${field}`]}
      />
      {badge && (
        <Badge tone={BADGES[badge].tone} title={explanations['candidate.badge']}>
          {t(BADGES[badge].text)}
        </Badge>
      )}
    </div>
  );
}
