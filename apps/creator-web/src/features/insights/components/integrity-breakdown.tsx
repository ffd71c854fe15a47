import type { InsightsReport } from '@exam/domain/insights';
import { StatCard } from '@exam/ui/card';
import { ClipboardX, Clock, Eye, Quote, ShieldAlert } from 'lucide-react';
import { Figure, formats, NOT_AVAILABLE } from './figure.tsx';

/**
 * The Integrity Breakdown cards: time to complete, focus, blocked pastes, copy writing and the assistant replies
 * the guardrail stopped, across the cohort.
 */
export function IntegrityBreakdown({ report }: { report: InsightsReport }) {
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
        hint={value === null ? (reason ?? NOT_AVAILABLE) : undefined}
      />
    );
  };
  return (
    <section aria-label="Integrity Breakdown" className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">Integrity Breakdown</h2>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {card('Avg. Time to Complete', 'avgTimeToCompleteSeconds', formats.seconds, <Clock aria-hidden />)}
        {card('Focus', 'focusPercent', formats.percent, <Eye aria-hidden />)}
        {card('External Paste', 'externalPasteBlocked', (v) => `${v} blocked`, <ClipboardX aria-hidden />)}
        {card('Copy Writing', 'copyWritingPercent', formats.percent, <Quote aria-hidden />)}
        {card('Answers Withheld', 'answersWithheld', (v) => `${v} stopped`, <ShieldAlert aria-hidden />)}
      </div>
    </section>
  );
}
