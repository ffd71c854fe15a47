import type { InsightsReport } from '@exam/domain/insights';
import { StatCard } from '@exam/ui/card';
import { ClipboardX, Clock, Eye, Quote, ShieldAlert } from 'lucide-react';
import { Figure, formats, notAvailable } from './figure.tsx';
import { useTranslation } from 'react-i18next';

/**
 * The Integrity Breakdown cards: time to complete, focus, blocked pastes, copy writing and the assistant replies
 * the guardrail stopped, across the cohort.
 */
export function IntegrityBreakdown({ report }: { report: InsightsReport }) {
  const { t } = useTranslation('insights');
  const { integrity, explanations, reasons } = report;
  const card = (label: string, field: keyof typeof integrity, format: (v: number) => string, icon: React.ReactNode) => {
    // answersWithheld is absent from a report of a results-service that does not count it yet.
    const value = integrity[field] ?? null;
    const reason = reasons[`integrity.${field}`];
    return (
      <StatCard
        label={label}
        icon={icon}
        value={
          <Figure value={value} format={format} explanation={explanations[`integrity.${field}`]} reason={reason} />
        }
        hint={value === null ? (reason ?? notAvailable()) : undefined}
      />
    );
  };
  return (
    <section aria-label={t('integrityBreakdown.integrityBreakdown')} className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">{t('integrityBreakdown.integrityBreakdown')}</h2>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {card(
          t('integrityBreakdown.avgTimeToComplete'),
          'avgTimeToCompleteSeconds',
          formats.seconds,
          <Clock aria-hidden />,
        )}
        {card(t('integrityBreakdown.focus'), 'focusPercent', formats.percent, <Eye aria-hidden />)}
        {card(
          t('integrityBreakdown.externalPaste'),
          'externalPasteBlocked',
          (v) => t('integrityBreakdown.vBlocked', { v }),
          <ClipboardX aria-hidden />,
        )}
        {card(t('integrityBreakdown.copyWriting'), 'copyWritingPercent', formats.percent, <Quote aria-hidden />)}
        {card(
          t('integrityBreakdown.answersWithheld'),
          'answersWithheld',
          (v) => t('integrityBreakdown.vStopped', { v }),
          <ShieldAlert aria-hidden />,
        )}
      </div>
    </section>
  );
}
