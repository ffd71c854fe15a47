import { cn } from '@exam/ui/lib/cn';
import { Bot, ShieldAlert, User } from 'lucide-react';
import { memo, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatElapsed, pageStateAt, type ConversationEntry, type ReplayEvent } from '../../lib/replay-model.ts';
import { useDescribeEvent } from './use-describe-event.ts';

/**
 * Keeps the newest item (the last) of a growing list in view as the replay moves on, scrolling the list alone:
 * scrollIntoView would scroll the page too, under the grader's eyes.
 */
function useNewestInView(count: number) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [count]);
  return list;
}

/** The proctoring events up to the moment, the most recent highlighted. */
const IntegritySoFar = memo(function IntegritySoFar({ events, count }: { events: ReplayEvent[]; count: number }) {
  const { t } = useTranslation('process');
  const describe = useDescribeEvent();
  const list = useNewestInView(count);
  const state = pageStateAt(events, count > 0 ? events[count - 1]!.t : -1);
  return (
    <div>
      <h3 className="text-sm font-semibold text-ink">{t('replay.pageState')}</h3>
      <p className="mb-2 text-sm text-ink" data-testid="replay-page-state">
        {state.away ? t('replay.away') : t('replay.onPage')},{' '}
        {state.windowed ? t('replay.windowed') : t('replay.fullscreen')}
      </p>
      <h3 className="text-sm font-semibold text-ink">{t('replay.integrity')}</h3>
      {count === 0 ? (
        <p className="text-sm text-muted">{t('replay.noIntegrity')}</p>
      ) : (
        <ol
          ref={list}
          aria-label={t('replay.integrity')}
          className="mt-1 flex max-h-48 flex-col gap-1 overflow-y-auto text-sm"
        >
          {events.slice(0, count).map((e, i) => {
            const isNewest = i === count - 1;
            return (
              <li
                key={e.index}
                aria-current={isNewest ? 'true' : undefined}
                className={cn('rounded px-2 py-0.5', isNewest ? 'bg-amber-100 font-medium text-ink' : 'text-muted')}
              >
                <span className="tabular-nums">{formatElapsed(e.t)}</span> {describe(e.event)}
                {isNewest && <span className="sr-only"> ({t('replay.mostRecent')})</span>}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
});

/** The assistant conversation up to the moment, the latest message highlighted. */
const ConversationSoFar = memo(function ConversationSoFar({
  entries,
  count,
}: {
  entries: ConversationEntry[];
  count: number;
}) {
  const { t } = useTranslation('process');
  const list = useNewestInView(count);
  return (
    <div>
      <h3 className="text-sm font-semibold text-ink">{t('replay.conversation')}</h3>
      {count === 0 ? (
        <p className="text-sm text-muted">{t('replay.noConversation')}</p>
      ) : (
        <ol
          ref={list}
          aria-label={t('replay.conversation')}
          className="mt-1 flex max-h-80 flex-col gap-2 overflow-y-auto"
        >
          {entries.slice(0, count).map((entry, i) => {
            const isNewest = i === count - 1;
            const mine = entry.role === 'user';
            return (
              <li
                key={`${entry.messageId}-${i}`}
                aria-current={isNewest ? 'true' : undefined}
                className={cn(
                  'rounded-lg px-3 py-2 text-sm',
                  mine ? 'bg-brand-50' : 'bg-canvas',
                  isNewest && 'ring-2 ring-brand-500',
                )}
              >
                <p className="mb-1 flex items-center gap-1 text-xs text-muted">
                  {mine ? <User aria-hidden className="h-3 w-3" /> : <Bot aria-hidden className="h-3 w-3" />}
                  {mine ? t('replay.candidate') : t('replay.assistant')} ·{' '}
                  <span className="tabular-nums">{formatElapsed(entry.t)}</span>
                  {isNewest && <span className="sr-only"> ({t('replay.mostRecent')})</span>}
                </p>
                <p className="whitespace-pre-wrap break-words text-ink">
                  {entry.content ?? <span className="italic text-muted">{t('replay.missingMessage')}</span>}
                </p>
                {entry.stopped && (
                  <p className="mt-1 flex items-center gap-1 text-xs font-medium text-amber-800">
                    <ShieldAlert aria-hidden className="h-3 w-3" /> {t('replay.stopped')}
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
});

/** Beside the answers: the page's state, the proctoring events and the assistant conversation up to the moment. */
export function ReplayContext({
  integrity,
  integrityCount,
  conversation,
  conversationCount,
}: {
  integrity: ReplayEvent[];
  integrityCount: number;
  conversation: ConversationEntry[];
  conversationCount: number;
}) {
  return (
    <div className="flex flex-col gap-4">
      <IntegritySoFar events={integrity} count={integrityCount} />
      <ConversationSoFar entries={conversation} count={conversationCount} />
    </div>
  );
}
