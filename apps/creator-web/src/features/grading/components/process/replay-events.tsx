import { cn } from '@exam/ui/lib/cn';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatElapsed, type ReplayEvent } from '../../lib/replay-model.ts';
import { useDescribeEvent } from './use-describe-event.ts';

/**
 * Every event but the answer edits (the answers themselves show those), each a button that moves the replay to
 * it; the latest at or before the moment is marked current.
 */
export const ReplayEvents = memo(function ReplayEvents({
  events,
  current,
  onJump,
}: {
  events: ReplayEvent[];
  /** The `index` of the latest listed event at or before the moment, -1 for none. */
  current: number;
  onJump: (event: ReplayEvent) => void;
}) {
  const { t } = useTranslation('process');
  const describe = useDescribeEvent();
  return (
    <div>
      <h3 className="text-sm font-semibold text-ink">{t('replay.events')}</h3>
      <p className="text-xs text-muted">{t('replay.eventsHint')}</p>
      {events.length === 0 ? (
        <p className="mt-1 text-sm text-muted">{t('replay.noEvents')}</p>
      ) : (
        <ol aria-label={t('replay.events')} className="mt-1 flex max-h-64 flex-col overflow-y-auto text-sm">
          {events.map((e) => {
            const isCurrent = e.index === current;
            return (
              <li key={e.index}>
                <button
                  type="button"
                  aria-current={isCurrent ? 'step' : undefined}
                  onClick={() => onJump(e)}
                  className={cn(
                    'flex w-full gap-2 rounded px-2 py-1 text-left hover:bg-canvas focus-visible:outline-2 focus-visible:outline-brand-500',
                    isCurrent && 'bg-brand-50 font-medium',
                  )}
                >
                  <span className="tabular-nums text-muted">{formatElapsed(e.t)}</span>{' '}
                  <span className="text-ink">{describe(e.event)}</span>
                </button>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
});
