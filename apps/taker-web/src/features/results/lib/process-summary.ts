import type { ProcessSummary } from '@exam/domain/timeline';
import type { TFunction } from 'i18next';
import { activeLanguage, formatPercent } from '../../../i18n/format.ts';

/**
 * The candidate's process in plain words: '92% typed, 8% pasted from within the exam, assistant used 3 times,
 * no outside paste'. Only the sources their answers hold are named; the assistant and refused pastes always are.
 */
export function describeProcess(
  summary: ProcessSummary,
  t: TFunction<'results'>,
  language: string = activeLanguage(),
): string {
  const percent = (value: number) => formatPercent(value, language);
  const shares: Array<[number, string]> = [
    [summary.typedPercent, t('receipt.typed', { percent: percent(summary.typedPercent) })],
    [summary.pastedPercent, t('receipt.pasted', { percent: percent(summary.pastedPercent) })],
    [summary.assistantPercent, t('receipt.fromAssistant', { percent: percent(summary.assistantPercent) })],
    [summary.autocompletePercent, t('receipt.autocomplete', { percent: percent(summary.autocompletePercent) })],
    [summary.restoredPercent, t('receipt.restored', { percent: percent(summary.restoredPercent) })],
  ];
  const parts =
    summary.characters > 0 ? shares.filter(([value]) => value > 0).map(([, text]) => text) : [t('receipt.noText')];
  parts.push(
    summary.assistantMessages > 0
      ? t('receipt.assistantUsed', { count: summary.assistantMessages })
      : t('receipt.assistantUnused'),
    summary.outsidePastesBlocked > 0
      ? t('receipt.outsidePastes', { count: summary.outsidePastesBlocked })
      : t('receipt.noOutsidePaste'),
  );
  return new Intl.ListFormat(language, { type: 'unit', style: 'long' }).format(parts);
}
