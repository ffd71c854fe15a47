import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { ConfirmDialog } from '@exam/ui/dialog';
import { toast } from '@exam/ui/toaster';
import { ArrowRight, Bot, Clock } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import type { SectionsControl } from '../hooks/use-sections.ts';
import { useCountdown } from '../hooks/use-countdown.ts';
import { formatCountdown } from '../lib/clock.ts';
import { sectionName } from './question-nav.tsx';

const noop = () => undefined;

/** The current section's own clock; the page moves on at its end (use-sections.ts), this only shows it. */
function SectionTimer({ deadline, clockOffsetMs }: { deadline: string; clockOffsetMs: number }) {
  const { t } = useTranslation('room');
  const remaining = useCountdown(deadline, clockOffsetMs, noop) ?? 0;
  return (
    <span
      role="timer"
      aria-label={t('sections.timeLeft')}
      className={`inline-flex items-center gap-1 font-mono text-xs font-semibold ${remaining < 60 ? 'text-danger' : 'text-ink'}`}
      data-testid="section-countdown"
    >
      <Clock aria-hidden className="h-3.5 w-3.5" />
      {formatCountdown(remaining)}
    </span>
  );
}

/**
 * Where the candidate is among the sections, above the navigation: the current section, whether the assistant
 * answers in it, its own timer, and "Next section", which asks first (leaving may lock what is behind).
 */
export function SectionBar({ control, clockOffsetMs }: { control: SectionsControl; clockOffsetMs: number }) {
  const { t } = useTranslation('room');
  const [confirming, setConfirming] = useState(false);
  const { position, exam } = control;
  const section = position ? exam.sections[position.current] : undefined;
  if (!position || !section) return null;
  const confirm = () => {
    control.advance().then(
      () => setConfirming(false),
      (error: unknown) => {
        setConfirming(false);
        toast.error(userMessageOf(error));
        // Refused because the attempt has already moved on (its time, another tab): show where it is now.
        control.refresh();
      },
    );
  };
  return (
    <div
      role="group"
      aria-label={t('sections.barLabel')}
      className="mb-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm"
      data-testid="section-bar"
    >
      <span className="font-medium text-ink" data-testid="current-section">
        {sectionName(t, section.title, position.current)}{' '}
        <span className="font-normal text-muted">
          {t('sections.position', { number: position.current + 1, total: exam.sections.length })}
        </span>
      </span>
      <Badge tone={position.assistant ? 'info' : 'neutral'} data-testid="section-assistant">
        <Bot aria-hidden className="h-3 w-3" />
        {position.assistant ? t('sections.assistantOn') : t('sections.assistantOff')}
      </Badge>
      {position.deadline && <SectionTimer deadline={position.deadline} clockOffsetMs={clockOffsetMs} />}
      {!control.isLast && (
        <Button
          size="sm"
          variant="secondary"
          className="ml-auto"
          onClick={() => setConfirming(true)}
          disabled={control.moving}
          data-testid="next-section"
        >
          {t('sections.next')}
          <ArrowRight aria-hidden className="h-4 w-4" />
        </Button>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('sections.confirmTitle')}
        description={t('sections.advanceConfirm')}
        confirmLabel={t('sections.confirm')}
        cancelLabel={t('sections.stay')}
        isPending={control.moving}
        onConfirm={confirm}
      />
    </div>
  );
}
