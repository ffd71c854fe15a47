import { drawValues, formatKey, formatValue, substituteValues } from '@exam/domain/calculated';
import { formulaIssue } from '@exam/domain/formula';
import type { CalculatedSettings } from '@exam/domain/question-kinds';
import { useTranslation } from 'react-i18next';
import type { QuestionInput } from '../../lib/question-form.ts';

/** A few fixed seeds: the same samples on every render, so the creator can compare after editing the formula. */
export const PREVIEW_SEEDS = ['preview-1', 'preview-2', 'preview-3'] as const;

type Sample = { values: string; text: string; key: string };

/**
 * What candidates would get for a few seeds, drawn by the same drawValues the server uses when an attempt starts
 * (calculated.ts): their values, the question's text with the values in, and the key. None while the variables or
 * the formula have a problem.
 */
export function calculatedSamples(calculated: QuestionInput['calculated'], text: string): Sample[] | null {
  if (!calculated) return null;
  const variables = (calculated.variables ?? []).map((v) => ({
    name: v.name,
    min: v.min,
    max: v.max,
    decimals: v.decimals ?? 0,
  }));
  const usable = variables.every(
    (v) => Number.isFinite(v.min) && Number.isFinite(v.max) && v.min <= v.max && /^[A-Za-z]\w*$/.test(v.name),
  );
  const formula = calculated.formula ?? '';
  if (
    !usable ||
    formulaIssue(
      formula,
      variables.map((v) => v.name),
    ) !== null
  )
    return null;
  const settings: CalculatedSettings = {
    formula,
    variables,
    answerDecimals: calculated.answerDecimals ?? null,
    values: null,
  };
  return PREVIEW_SEEDS.flatMap((seed) => {
    const drawn = drawValues({ calculated: settings }, seed);
    if (!drawn) return [];
    return [
      {
        values: variables.map((v) => `${v.name} = ${formatValue(drawn.values[v.name] ?? 0, v.decimals)}`).join(', '),
        text: substituteValues(text, variables, drawn.values),
        key: formatKey(drawn.key),
      },
    ];
  });
}

/** The "Sample values" lines under a calculated question's formula. */
export function CalculatedSamples({ index, samples }: { index: number; samples: Sample[] | null }) {
  const { t } = useTranslation('question-kinds');
  return (
    <section
      aria-label={t('calculated.samples', { n: index + 1 })}
      className="rounded-lg border border-dashed border-line bg-surface px-3 py-2"
    >
      <p className="text-sm font-medium text-ink">{t('calculated.samplesTitle')}</p>
      {samples === null ? (
        <p className="text-sm text-muted">{t('calculated.samplesWaiting')}</p>
      ) : samples.length === 0 ? (
        <p className="text-sm text-danger">{t('calculated.samplesNone')}</p>
      ) : (
        <ul className="mt-1 flex flex-col gap-1 text-sm text-ink">
          {samples.map((sample, i) => (
            <li key={i} data-testid={`calculated-sample-${index}-${i}`}>
              {t('calculated.sample', { values: sample.values, key: sample.key })}
              {sample.text.trim() !== '' && <span className="block text-muted">{sample.text}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
