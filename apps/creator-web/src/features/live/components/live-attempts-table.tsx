import type { LiveAttempt, LiveAttemptStatus } from '@exam/domain/live';
import { Badge, type BadgeTone } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { EmptyState } from '@exam/ui/empty-state';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { Clock, LockOpen, Square, Users } from 'lucide-react';
import { useEffect, useState } from 'react';
import { formatAgo, formatTimeLeft, secondsLeftNow } from '../lib/time-left.ts';
import { formatTime } from '../../../lib/format-date.ts';
import { CandidateLink } from '../../../components/candidate-link.tsx';
import { useTranslation } from 'react-i18next';
import type { LiveAttemptWithShares } from '../api/manage-live-exam.ts';
import type { ParseKeys } from 'i18next';

const STATUS: Record<LiveAttemptStatus, { label: ParseKeys<'live'>; tone: BadgeTone }> = {
  'in-progress': { label: 'liveAttemptsTable.statusLabel.inProgress', tone: 'brand' },
  submitted: { label: 'liveAttemptsTable.statusLabel.submitted', tone: 'success' },
  ended: { label: 'liveAttemptsTable.statusLabel.ended', tone: 'warning' },
  expired: { label: 'liveAttemptsTable.statusLabel.expired', tone: 'neutral' },
};

const WARNING_LABELS: Record<string, ParseKeys<'live'>> = {
  'focus-lost': 'liveAttemptsTable.warningType.focusLost',
  'fullscreen-exit': 'liveAttemptsTable.warningType.fullscreenExit',
  'paste-blocked': 'liveAttemptsTable.warningType.pasteBlocked',
  'paste-allowed': 'liveAttemptsTable.warningType.pasteAllowed',
  copy: 'liveAttemptsTable.warningType.copy',
};

function Warnings({ warnings }: { warnings: Record<string, number> }) {
  const { t } = useTranslation('live');
  const entries = Object.entries(warnings).filter(([, n]) => n > 0);
  if (entries.length === 0) return <span className="text-muted">{t('liveAttemptsTable.none')}</span>;
  return (
    <ul className="flex flex-col gap-0.5">
      {entries.map(([type, n]) => (
        <li key={type} className="whitespace-nowrap">
          {t('liveAttemptsTable.warningLabel', { label: WARNING_LABELS[type] ? t(WARNING_LABELS[type]) : type })}
          <span className="font-medium tabular-nums">{n}</span>
        </li>
      ))}
    </ul>
  );
}

type Shares = NonNullable<LiveAttemptWithShares['shares']>;
const SHARE_KINDS = ['typed', 'pasted', 'assistant'] as const;
const SHARE_FILL: Record<(typeof SHARE_KINDS)[number], string> = {
  typed: 'bg-brand-500',
  pasted: 'bg-amber-500',
  assistant: 'bg-violet-600',
};

/** The answers' characters so far by source: a bar for the eye, and the percentages written out. */
function RunningShares({ shares }: { shares: Shares | undefined }) {
  const { t } = useTranslation('live');
  const total = shares ? shares.typed + shares.pasted + shares.assistant : 0;
  // No figures from the server (nothing recorded for this attempt): a dash, not a claim that nothing was written.
  if (!shares) return <span className="text-muted">—</span>;
  if (total === 0) return <span className="text-muted">{t('liveAttemptsTable.noShares')}</span>;
  const percent = (n: number) => Math.round((n / total) * 100);
  return (
    <div className="flex min-w-36 flex-col gap-1">
      <div aria-hidden className="flex h-1.5 w-full overflow-hidden rounded-full bg-line">
        {SHARE_KINDS.map((kind) => (
          <span key={kind} className={SHARE_FILL[kind]} style={{ width: `${(shares[kind] / total) * 100}%` }} />
        ))}
      </div>
      <span className="whitespace-nowrap text-xs tabular-nums">
        {t('liveAttemptsTable.shares', {
          typed: percent(shares.typed),
          pasted: percent(shares.pasted),
          assistant: percent(shares.assistant),
        })}
      </span>
    </div>
  );
}

/** Ticks once a second, so the time left counts down between two polls. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export type AttemptAction = 'extend' | 'unlock' | 'end';

type Props = {
  attempts: LiveAttemptWithShares[];
  serverNow: string;
  /** When this answer arrived (the query's dataUpdatedAt), for the local countdown. */
  receivedAt: number;
  onAction: (action: AttemptAction, attempt: LiveAttempt) => void;
};

/** One row per attempt in progress or lately submitted; the actions apply to those in progress. */
export function LiveAttemptsTable({ attempts, serverNow, receivedAt, onAction }: Props) {
  const { t } = useTranslation('live');
  const now = useNow();
  if (attempts.length === 0) {
    return <EmptyState icon={<Users aria-hidden />} title={t('liveAttemptsTable.nobodyIsSittingThis')} />;
  }
  return (
    <Table aria-label={t('liveAttemptsTable.candidates')}>
      <TableHead>
        <tr>
          {[
            t('liveAttemptsTable.candidate'),
            t('liveAttemptsTable.status'),
            t('liveAttemptsTable.started'),
            t('liveAttemptsTable.lastSeen'),
            t('liveAttemptsTable.answered'),
            t('liveAttemptsTable.warnings'),
            t('liveAttemptsTable.process'),
            t('liveAttemptsTable.timeLeft'),
          ].map((h) => (
            <TableHeaderCell key={h} scope="col">
              {h}
            </TableHeaderCell>
          ))}
          <TableHeaderCell scope="col" className="text-right">
            {t('liveAttemptsTable.actions')}
          </TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody>
        {attempts.map((attempt) => {
          const who = `${attempt.name} (${attempt.studentId})`;
          const open = attempt.status === 'in-progress';
          return (
            <TableRow key={attempt.attemptId} data-testid={`live-row-${attempt.studentId}`}>
              <TableHeaderCell scope="row" className="min-w-36 font-medium normal-case tracking-normal text-ink">
                <span className="block">
                  <CandidateLink studentId={attempt.studentId}>{attempt.name}</CandidateLink>
                </span>
                <span className="block text-xs font-normal text-muted">{attempt.studentId}</span>
              </TableHeaderCell>
              <TableCell>
                <Badge tone={STATUS[attempt.status].tone}>{t(STATUS[attempt.status].label)}</Badge>
              </TableCell>
              <TableCell className="tabular-nums">{formatTime(attempt.startedAt)}</TableCell>
              <TableCell className="whitespace-nowrap tabular-nums">
                {formatAgo(attempt.lastSeenAt, serverNow)}
              </TableCell>
              <TableCell
                className="tabular-nums"
                data-testid="answered"
              >{`${attempt.answered} / ${attempt.total}`}</TableCell>
              <TableCell>
                <Warnings warnings={attempt.warnings} />
              </TableCell>
              <TableCell data-testid="shares">
                <RunningShares shares={attempt.shares} />
              </TableCell>
              <TableCell className="tabular-nums" data-testid="time-left">
                {attempt.secondsLeft === null
                  ? '—'
                  : formatTimeLeft(secondsLeftNow(attempt.secondsLeft, receivedAt, now))}
              </TableCell>
              <TableCell>
                {open ? (
                  <div className="flex justify-end gap-1">
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={t('liveAttemptsTable.extendTimeForWho', { who })}
                      onClick={() => onAction('extend', attempt)}
                    >
                      <Clock aria-hidden className="h-4 w-4" /> {t('liveAttemptsTable.extend')}
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={t('liveAttemptsTable.unlockResumeForWho', { who })}
                      onClick={() => onAction('unlock', attempt)}
                    >
                      <LockOpen aria-hidden className="h-4 w-4" /> {t('liveAttemptsTable.unlock')}
                    </Button>
                    <Button
                      size="sm"
                      variant="danger"
                      aria-label={t('liveAttemptsTable.endAttemptOfWho', { who })}
                      onClick={() => onAction('end', attempt)}
                    >
                      <Square aria-hidden className="h-4 w-4" /> {t('liveAttemptsTable.end')}
                    </Button>
                  </div>
                ) : (
                  <span className="block text-right text-xs text-muted">
                    {attempt.endedBy ? t('liveAttemptsTable.endedByEndedby', { endedBy: attempt.endedBy }) : '—'}
                  </span>
                )}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
