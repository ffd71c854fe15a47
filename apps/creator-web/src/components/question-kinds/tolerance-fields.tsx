import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { useTranslation } from 'react-i18next';
import { useQuestionField, useQuestionValue } from './use-question-field.ts';

type Mode = 'absolute' | 'relative';

/** How far from the key an answer may be (AnswerMatching.numeric), and what that means for a value. */
export function ToleranceFields({ index, example }: { index: number; example: string | undefined }) {
  const { t } = useTranslation('question-kinds');
  const { set, error } = useQuestionField(index);
  const numeric = useQuestionValue(index, 'matching.numeric') ?? null;
  const tolerance = numeric?.tolerance ?? 0;
  const mode: Mode = numeric?.mode ?? 'absolute';
  const n = index + 1;
  const change = (next: { tolerance?: number; mode?: Mode }) =>
    set('matching.numeric', { tolerance: next.tolerance ?? tolerance, mode: next.mode ?? mode });
  return (
    <div className="flex flex-col gap-1">
      <div className="flex flex-wrap items-end gap-4">
        <Field label={t('tolerance.label', { n })} error={error('matching.numeric.tolerance')} className="w-40">
          <Input
            type="number"
            min={0}
            step="any"
            inputMode="decimal"
            value={Number.isFinite(tolerance) ? tolerance : ''}
            onChange={(e) => change({ tolerance: e.target.value === '' ? 0 : Number(e.target.value) })}
          />
        </Field>
        <Field label={t('tolerance.mode', { n })} className="w-44">
          <Select
            value={mode}
            options={[
              { value: 'absolute', label: t('tolerance.absolute') },
              { value: 'relative', label: t('tolerance.relative') },
            ]}
            onValueChange={(v) => change({ mode: v as Mode })}
          />
        </Field>
      </div>
      {example !== undefined && example.trim() !== '' && (
        <p className="text-sm text-ink" data-testid={`tolerance-example-${index}`}>
          {t('tolerance.accepted', { range: toleranceText(example, tolerance, mode) })}
        </p>
      )}
    </div>
  );
}

/** "3.14 ± 0.01", or for a relative tolerance "3.14 ± 1% (± 0.0314)". */
export function toleranceText(value: string, tolerance: number, mode: Mode): string {
  if (mode === 'absolute') return `${value} ± ${tolerance}`;
  const expected = Number(value);
  const percent = Number((tolerance * 100).toPrecision(6));
  const spread = Number.isFinite(expected) ? Number((Math.abs(expected) * tolerance).toPrecision(6)) : NaN;
  return Number.isFinite(spread) ? `${value} ± ${percent}% (± ${spread})` : `${value} ± ${percent}%`;
}
