import {
  auditHeadline,
  type AssistantAudit,
  type AuditConfiguration,
  type AuditItem,
} from '@exam/domain/assistant-audit';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { useTranslation } from 'react-i18next';
import { configurationName } from '../../../lib/ai-configuration.ts';
import { formatPercent } from '../lib/format.ts';
import { AuditLeaks } from './audit-leaks.tsx';

/** "This exam's assistant (OpenAI gpt-4o)" or "Comparison 1 (Anthropic claude-sonnet-4)". */
export function useConfigurationLabel(configurations: readonly AuditConfiguration[]) {
  const { t } = useTranslation('audit');
  return (index: number) => {
    const configuration = configurations[index];
    const label = configuration ? configurationName(configuration) : String(index);
    return index === 0 ? t('configuration.own', { label }) : t('configuration.other', { number: index, label });
  };
}

/** The audit's report: the headline per configuration, leaks per attack, leak rates per question, the transcripts. */
export function AuditReport({ audit }: { audit: AssistantAudit }) {
  const { t } = useTranslation('audit');
  const labelOf = useConfigurationLabel(audit.configurations);
  const compared = audit.configurations.length > 1;
  return (
    <div className="flex flex-col gap-4">
      {/* Before any attempt was judged there is no headline to give ("Not audited yet." would mislead). */}
      {audit.summary.length > 0 && (
        <ul className="flex flex-col gap-1" data-testid="audit-headlines">
          {audit.configurations.map((_, index) => (
            <li key={index} className="text-sm font-medium text-ink">
              {compared
                ? t('report.headlineFor', {
                    configuration: labelOf(index),
                    headline: auditHeadline(audit.summary, index),
                  })
                : auditHeadline(audit.summary, index)}
            </li>
          ))}
        </ul>
      )}
      {audit.summary.length > 0 && <FormsTable audit={audit} labelOf={labelOf} />}
      {audit.items.length > 0 && <ItemsTable audit={audit} labelOf={labelOf} />}
      <AuditLeaks items={audit.items} labelOf={compared ? labelOf : null} />
    </div>
  );
}

function FormsTable({ audit, labelOf }: { audit: AssistantAudit; labelOf: (index: number) => string }) {
  const { t } = useTranslation('audit');
  const compared = audit.configurations.length > 1;
  return (
    <Table>
      <caption className="mb-1 text-left text-sm font-medium text-ink">{t('report.formsCaption')}</caption>
      <TableHead>
        <TableRow>
          <TableHeaderCell>{t('report.form')}</TableHeaderCell>
          {compared && <TableHeaderCell>{t('report.configuration')}</TableHeaderCell>}
          <TableHeaderCell>{t('report.guarded')}</TableHeaderCell>
          <TableHeaderCell>{t('report.raw')}</TableHeaderCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {audit.summary.map((row) => (
          <TableRow key={`${row.form}-${row.configuration}`}>
            <th scope="row" className="px-2.5 py-3 text-left font-medium text-ink first:pl-5">
              {t(`forms.${row.form}`)}
            </th>
            {compared && <TableCell>{labelOf(row.configuration)}</TableCell>}
            <TableCell className={row.itemsLeaking > 0 ? 'font-medium text-red-700' : undefined}>
              {t('report.outOf', { count: row.itemsLeaking, tried: row.itemsTried })}
            </TableCell>
            <TableCell>{t('report.outOf', { count: row.itemsLeakingRaw, tried: row.itemsTried })}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function ItemsTable({ audit, labelOf }: { audit: AssistantAudit; labelOf: (index: number) => string }) {
  const { t } = useTranslation('audit');
  const compared = audit.configurations.length > 1;
  return (
    <Table>
      <caption className="mb-1 text-left text-sm font-medium text-ink">{t('report.itemsCaption')}</caption>
      <TableHead>
        <TableRow>
          <TableHeaderCell>{t('report.item')}</TableHeaderCell>
          {compared && <TableHeaderCell>{t('report.configuration')}</TableHeaderCell>}
          <TableHeaderCell>{t('report.rawRate')}</TableHeaderCell>
          <TableHeaderCell>{t('report.guardedRate')}</TableHeaderCell>
          <TableHeaderCell>{t('report.formsLeaked')}</TableHeaderCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {audit.items.map((item) => (
          <TableRow key={`${item.questionId}-${item.configuration}`}>
            <th scope="row" className="px-2.5 py-3 text-left font-medium text-ink first:pl-5">
              {t('report.question', { number: item.questionIndex + 1, title: item.title })}
              {item.errors > 0 && (
                <span className="block text-xs font-normal text-muted">
                  {t('report.errors', { count: item.errors })}
                </span>
              )}
            </th>
            {compared && <TableCell>{labelOf(item.configuration)}</TableCell>}
            <TableCell>
              <Rate rate={item.rawLeakRate} count={item.rawLeaks} item={item} />
            </TableCell>
            <TableCell>
              <Rate rate={item.guardedLeakRate} count={item.guardedLeaks} item={item} />
              {item.guardedInterval && (
                <span className="block text-xs text-muted">
                  {t('report.interval', {
                    low: formatPercent(item.guardedInterval.low),
                    high: formatPercent(item.guardedInterval.high),
                  })}
                </span>
              )}
            </TableCell>
            <TableCell>
              {item.formsLeaked.length > 0
                ? item.formsLeaked.map((form) => t(`forms.${form}`)).join(', ')
                : t('report.none')}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Rate({ rate, count, item }: { rate: number | null; count: number; item: AuditItem }) {
  const { t } = useTranslation('audit');
  const answered = item.done - item.errors;
  return (
    <>
      {rate === null ? t('report.notMeasured') : t('report.rate', { rate: formatPercent(rate), count, done: answered })}
    </>
  );
}
