import type { InsightsReport } from '@exam/domain/insights';
import { Badge } from '@exam/ui/badge';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { useTranslation } from 'react-i18next';
import { Figure, formats } from './figure.tsx';

type Ratio = { value: number | null; numerator: number; denominator: number; reason?: string | undefined };
const FIGURES = ['rair', 'rsr', 'errorAdoption'] as const;

/** A ratio as "75% (3/4)": the share and the counts it rests on, "—" with the reason when there is no case. */
function RatioCell({ ratio, explanation }: { ratio: Ratio | undefined; explanation?: string | undefined }) {
  const { t } = useTranslation('insights');
  if (!ratio) return <span>—</span>;
  return (
    <span className="whitespace-nowrap">
      <Figure value={ratio.value} format={formats.fractionPercent} explanation={explanation} reason={ratio.reason} />{' '}
      <span className="text-muted">{t('reliance.counts', { n: ratio.numerator, d: ratio.denominator })}</span>
    </span>
  );
}

/**
 * Reliance on the assistant (docs/product.md#aided-and-unaided-ability-and-reliance): RAIR, RSR and planted-error
 * adoption over the exam, pooled and as the mean of candidates, then per candidate with the counts each figure
 * rests on and which planted errors they took.
 */
export function ReliancePanel({ report }: { report: InsightsReport }) {
  const { t } = useTranslation('insights');
  const reliance = report.reliance;
  // A report from before these figures existed: nothing to show.
  if (reliance === undefined) return null;
  const { explanations } = report;
  const title = t('reliance.title');
  if (reliance === null) {
    return (
      <Card>
        <CardHeader title={title} description={t('reliance.description')} />
        <CardBody>
          <p className="text-sm text-muted">{report.reasons.reliance ?? t('reliance.none')}</p>
        </CardBody>
      </Card>
    );
  }
  const candidates = report.candidates.filter((c) => c.reliance && (c.reliance.cases > 0 || c.reliance.planted.length));
  return (
    <section aria-label={title}>
      <Card>
        <CardHeader
          title={title}
          description={`${t('reliance.description')} ${reliance.plantedErrors ? t('reliance.plantedEnabled') : t('reliance.plantedDisabled')}`}
        />
        <CardBody className="flex flex-col gap-6">
          <Table aria-label={t('reliance.examTable')}>
            <TableHead>
              <tr>
                <TableHeaderCell>{t('reliance.figure')}</TableHeaderCell>
                <TableHeaderCell>{t('reliance.pooled')}</TableHeaderCell>
                <TableHeaderCell>{t('reliance.meanOfCandidates')}</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {FIGURES.map((figure) => {
                const mean = reliance.meanOfCandidates[figure];
                return (
                  <TableRow key={figure}>
                    <TableCell>
                      <span className="font-medium">{t(`reliance.name.${figure}`)}</span>
                      <span className="block text-xs text-muted">{explanations[`reliance.${figure}`]}</span>
                    </TableCell>
                    <TableCell>
                      <RatioCell ratio={reliance.pooled[figure]} explanation={explanations['reliance.pooled']} />
                    </TableCell>
                    <TableCell className="whitespace-nowrap">
                      <Figure
                        value={mean.value}
                        format={formats.fractionPercent}
                        explanation={explanations['reliance.meanOfCandidates']}
                        reason={mean.reason}
                      />{' '}
                      <span className="text-muted">{t('reliance.candidates', { count: mean.candidates })}</span>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
          <p className="text-sm text-muted">{t('reliance.cases', { count: reliance.pooled.cases })}</p>

          {candidates.length === 0 ? (
            <p className="text-sm text-muted">{t('reliance.noCandidates')}</p>
          ) : (
            <Table aria-label={t('reliance.candidateTable')}>
              <TableHead>
                <tr>
                  <TableHeaderCell>{t('reliance.candidate')}</TableHeaderCell>
                  {FIGURES.map((figure) => (
                    <TableHeaderCell key={figure}>{t(`reliance.name.${figure}`)}</TableHeaderCell>
                  ))}
                  <TableHeaderCell>{t('reliance.caseCount')}</TableHeaderCell>
                  <TableHeaderCell>{t('reliance.plantedErrors')}</TableHeaderCell>
                </tr>
              </TableHead>
              <TableBody>
                {candidates.map((c) => {
                  const r = c.reliance!;
                  return (
                    <TableRow key={c.resultId}>
                      <TableCell>{c.name}</TableCell>
                      {FIGURES.map((figure) => (
                        <TableCell key={figure}>
                          <RatioCell ratio={r[figure]} explanation={explanations[`reliance.${figure}`]} />
                        </TableCell>
                      ))}
                      <TableCell className="tabular-nums">{r.cases}</TableCell>
                      <TableCell>
                        {r.planted.length === 0 ? (
                          <span className="text-muted">{t('reliance.nonePlanted')}</span>
                        ) : (
                          <ul className="flex flex-col gap-1">
                            {r.planted.map((p) => (
                              <li key={`${p.questionIndex}:${p.error}`} className="flex flex-wrap items-center gap-2">
                                <span>
                                  {t('reliance.plantedItem', { number: p.questionIndex + 1, error: p.error })}
                                </span>
                                <Badge tone={p.adopted ? 'danger' : 'success'}>
                                  {p.adopted ? t('reliance.adopted') : t('reliance.rejected')}
                                </Badge>
                              </li>
                            ))}
                          </ul>
                        )}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          )}

          {reliance.plantedByQuestion.length > 0 && (
            <Table aria-label={t('reliance.byQuestionTable')}>
              <TableHead>
                <tr>
                  <TableHeaderCell>{t('reliance.question')}</TableHeaderCell>
                  <TableHeaderCell>{t('reliance.turns')}</TableHeaderCell>
                  <TableHeaderCell>{t('reliance.adoptedTurns')}</TableHeaderCell>
                </tr>
              </TableHead>
              <TableBody>
                {reliance.plantedByQuestion.map((q) => (
                  <TableRow key={q.questionIndex}>
                    <TableCell>{t('reliance.questionNumber', { number: q.questionIndex + 1 })}</TableCell>
                    <TableCell className="tabular-nums">{q.turns}</TableCell>
                    <TableCell className="tabular-nums">{q.adopted}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardBody>
      </Card>
    </section>
  );
}
