import type { InsightsModelRequest, InsightsReport } from '@exam/domain/insights';
import { Badge } from '@exam/ui/badge';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { useTranslation } from 'react-i18next';
import { Figure, formats } from './figure.tsx';

const MODELS = ['auto', 'rasch', '2pl'] as const satisfies readonly InsightsModelRequest[];

/** "0.85 (± 0.30)": an estimate with its standard error, or '—' with the reason. */
function Estimate({
  value,
  se,
  reason,
}: {
  value: number | null | undefined;
  se: number | null | undefined;
  reason?: string | undefined;
}) {
  return (
    <span className="whitespace-nowrap">
      <Figure value={value ?? null} format={formats.decimal} reason={reason} />
      {typeof value === 'number' && typeof se === 'number' && (
        <span className="ml-1 text-xs text-muted tabular-nums">± {formats.decimal(se)}</span>
      )}
    </span>
  );
}

/**
 * Rasch beside 2PL per question, with item fit and flags, and the model the abilities come from: chosen by
 * the likelihood-ratio test, or by the creator (the report is fetched again with ?model=).
 */
export function ItemModels({
  report,
  model,
  onModelChange,
  isFetching,
}: {
  report: InsightsReport;
  model: InsightsModelRequest;
  onModelChange: (model: InsightsModelRequest) => void;
  isFetching: boolean;
}) {
  const { t } = useTranslation('insights');
  const chosen = report.model?.chosen;
  const lrt = report.model?.lrt;
  return (
    <Card>
      <CardHeader
        title={t('itemModels.title')}
        description={t('itemModels.description')}
        actions={
          <fieldset className="flex items-center gap-1" aria-busy={isFetching}>
            <legend className="sr-only">{t('itemModels.chooser')}</legend>
            {MODELS.map((option) => (
              <label
                key={option}
                className="cursor-pointer rounded-md border border-line px-3 py-1.5 text-sm text-ink has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:checked]:font-semibold has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500"
              >
                <input
                  type="radio"
                  name="insights-model"
                  className="sr-only"
                  value={option}
                  checked={model === option}
                  onChange={() => onModelChange(option)}
                />
                {t(`itemModels.option.${option}`)}
              </label>
            ))}
          </fieldset>
        }
      />
      {report.model && (
        <CardBody className="border-b border-line text-sm" data-testid="model-choice">
          <p className="text-ink">
            {t('itemModels.chosen', { model: t(`itemModels.name.${chosen === '2pl' ? 'twoPl' : 'rasch'}`) })}{' '}
            <span className="text-muted">{report.model.reason}</span>
          </p>
          <p className="mt-1 text-muted">
            {lrt
              ? t('itemModels.lrt', {
                  statistic: formats.decimal(lrt.statistic),
                  df: lrt.df,
                  p: lrt.p < 0.001 ? '< 0.001' : `= ${lrt.p.toFixed(3)}`,
                  alpha: report.model.alpha,
                })
              : (report.reasons.twoPl ?? t('itemModels.noLrt'))}
          </p>
        </CardBody>
      )}
      <Table aria-label={t('itemModels.title')}>
        <TableHead>
          <tr>
            <TableHeaderCell>#</TableHeaderCell>
            <TableHeaderCell>{t('itemModels.column.raschDifficulty')}</TableHeaderCell>
            <TableHeaderCell>{t('itemModels.column.twoPlDiscrimination')}</TableHeaderCell>
            <TableHeaderCell>{t('itemModels.column.twoPlDifficulty')}</TableHeaderCell>
            <TableHeaderCell>{t('itemModels.column.infit')}</TableHeaderCell>
            <TableHeaderCell>{t('itemModels.column.outfit')}</TableHeaderCell>
            <TableHeaderCell>{t('itemModels.column.flags')}</TableHeaderCell>
          </tr>
        </TableHead>
        <TableBody>
          {report.items.map((item) => {
            const i = item.questionIndex;
            const twoPlReason = report.reasons[`items.${i}.twoPl`];
            return (
              <TableRow key={i} data-testid="model-row">
                <TableCell className="tabular-nums">{i + 1}</TableCell>
                <TableCell>
                  <Estimate
                    value={item.raschDifficulty}
                    se={item.raschDifficultySe}
                    reason={report.reasons[`items.${i}.raschDifficulty`]}
                  />
                </TableCell>
                <TableCell>
                  <Estimate value={item.twoPl?.discrimination} se={item.twoPl?.discriminationSe} reason={twoPlReason} />
                </TableCell>
                <TableCell>
                  <Estimate
                    value={item.twoPl?.difficulty}
                    se={item.twoPl?.difficultySe}
                    reason={report.reasons[`items.${i}.twoPl.difficulty`] ?? twoPlReason}
                  />
                </TableCell>
                <TableCell>
                  <Figure
                    value={item.fit?.infit ?? null}
                    format={formats.decimal}
                    reason={report.reasons[`items.${i}.fit`]}
                  />
                </TableCell>
                <TableCell>
                  <Figure
                    value={item.fit?.outfit ?? null}
                    format={formats.decimal}
                    reason={report.reasons[`items.${i}.fit`]}
                  />
                </TableCell>
                <TableCell>
                  {item.fit?.flags.length ? (
                    <ul className="flex flex-col gap-1">
                      {item.fit.flags.map((flag) => {
                        const explanation = report.explanations[`flag.${flag}`];
                        return (
                          <li key={flag} className="max-w-xs text-xs">
                            <Badge tone="warning">{t(`itemModels.flag.${flag}`)}</Badge>
                            {explanation && <span className="mt-0.5 block text-muted">{explanation}</span>}
                          </li>
                        );
                      })}
                    </ul>
                  ) : (
                    <span className="text-muted">{t('itemModels.noFlags')}</span>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Card>
  );
}
