import type {
  EquivalenceItem,
  EquivalenceReport,
  EquivalenceVerdict,
  Proportion,
  RateDifference,
} from '@exam/domain/assistant-audit';
import { Badge, type BadgeTone } from '@exam/ui/badge';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useEquivalence } from '../api/get-equivalence.ts';
import { formatPercent, formatSignedPercent } from '../lib/format.ts';
import { useConfigurationLabel } from './audit-report.tsx';

const VERDICT_TONES: Record<EquivalenceVerdict, BadgeTone> = {
  equivalent: 'success',
  differs: 'danger',
  inconclusive: 'warning',
  'not-measured': 'neutral',
};

/** Provider equivalence of a finished audit that compared configurations (docs/product.md). */
export function Equivalence({ examId, auditId }: { examId: string; auditId: string }) {
  const { t } = useTranslation('audit');
  const report = useEquivalence(examId, auditId, true);
  if (report.isPending) return <p className="text-xs text-muted">{t('equivalence.loading')}</p>;
  if (report.isError) {
    return (
      <p role="alert" className="text-sm text-red-700">
        {userMessageOf(report.error)}
      </p>
    );
  }
  return <EquivalenceView report={report.data} />;
}

export function EquivalenceView({ report }: { report: EquivalenceReport }) {
  const { t } = useTranslation('audit');
  return (
    <section aria-labelledby="audit-equivalence-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <h4 id="audit-equivalence-heading" className="text-sm font-medium text-ink">
          {t('equivalence.heading')}
        </h4>
        <Badge tone={VERDICT_TONES[report.verdict]}>
          {t('equivalence.verdictLabel', { verdict: t(`equivalence.verdict.${report.verdict}`) })}
        </Badge>
      </div>
      <p className="text-sm text-ink">{report.summary}</p>
      <p className="text-xs text-muted">{t('equivalence.margin', { margin: formatPercent(report.margin) })}</p>
      {report.solvabilityCheckId === null && <p className="text-xs text-muted">{t('equivalence.noSolvability')}</p>}
      {report.items.map((item) => (
        <ItemTable key={item.questionId} item={item} report={report} />
      ))}
    </section>
  );
}

function ItemTable({ item, report }: { item: EquivalenceItem; report: EquivalenceReport }) {
  const { t } = useTranslation('audit');
  const labelOf = useConfigurationLabel(report.configurations);
  const withSolvability = report.solvabilityCheckId !== null;
  return (
    <Table>
      <caption className="mb-1 text-left text-sm font-medium text-ink">
        {t('equivalence.itemCaption', { number: item.questionIndex + 1, title: item.title })}
      </caption>
      <TableHead>
        <TableRow>
          <TableHeaderCell>{t('equivalence.configuration')}</TableHeaderCell>
          <TableHeaderCell>{t('equivalence.leak')}</TableHeaderCell>
          <TableHeaderCell>{t('equivalence.leakDifference')}</TableHeaderCell>
          {withSolvability && <TableHeaderCell>{t('equivalence.solvability')}</TableHeaderCell>}
          {withSolvability && <TableHeaderCell>{t('equivalence.solvabilityDifference')}</TableHeaderCell>}
        </TableRow>
      </TableHead>
      <TableBody>
        {report.configurations.map((_, index) => (
          <TableRow key={index}>
            <th scope="row" className="px-2.5 py-3 text-left font-medium text-ink first:pl-5">
              {labelOf(index)}
            </th>
            <TableCell>
              <ProportionText proportion={item.leak[index]} />
            </TableCell>
            <TableCell>
              <DifferenceText index={index} differences={item.leakDifference} />
            </TableCell>
            {withSolvability && (
              <TableCell>
                <ProportionText proportion={item.solvability[index]} />
              </TableCell>
            )}
            {withSolvability && (
              <TableCell>
                <DifferenceText index={index} differences={item.solvabilityDifference} />
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function ProportionText({ proportion }: { proportion: Proportion | undefined }) {
  const { t } = useTranslation('audit');
  if (!proportion || proportion.rate === null || proportion.low === null || proportion.high === null) {
    return <>{t('report.notMeasured')}</>;
  }
  return (
    <>
      {t('equivalence.proportion', {
        rate: formatPercent(proportion.rate),
        k: proportion.k,
        n: proportion.n,
        low: formatPercent(proportion.low),
        high: formatPercent(proportion.high),
      })}
    </>
  );
}

/** Configuration 0 is what the others are measured against; each other row says how far it is and what that means. */
function DifferenceText({ index, differences }: { index: number; differences: RateDifference[] }) {
  const { t } = useTranslation('audit');
  if (index === 0) return <span className="text-muted">{t('equivalence.reference')}</span>;
  const difference = differences.find((d) => d.configuration === index);
  if (!difference) return <>{t(`equivalence.verdict.not-measured`)}</>;
  const verdict = (
    <Badge tone={VERDICT_TONES[difference.verdict]}>{t(`equivalence.verdict.${difference.verdict}`)}</Badge>
  );
  if (difference.estimate === null || difference.low === null || difference.high === null) return verdict;
  return (
    <span className="flex flex-wrap items-center gap-2">
      <span>
        {t('equivalence.differenceValue', {
          estimate: formatSignedPercent(difference.estimate),
          low: formatSignedPercent(difference.low),
          high: formatSignedPercent(difference.high),
        })}
      </span>
      {verdict}
    </span>
  );
}
