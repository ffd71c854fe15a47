import { RemoveButton, AddButton } from './list-controls.tsx';
import { formulaIssue } from '@exam/domain/formula';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { useTranslation } from 'react-i18next';
import type { QuestionInput } from '../../lib/question-form.ts';
import { CalculatedSamples, calculatedSamples } from './calculated-samples.tsx';
import { ToleranceFields } from './tolerance-fields.tsx';
import { UnitsFields } from './units-fields.tsx';
import { useQuestionField, useQuestionValue } from './use-question-field.ts';

type Calculated = NonNullable<QuestionInput['calculated']>;
type Variable = NonNullable<Calculated['variables']>[number];

const numberOrNaN = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));

/**
 * A calculated question (calculated.ts): variables drawn per attempt, the formula computing the key, its rounding,
 * tolerance and units, and sample values drawn as the server draws them, so the creator checks the formula.
 */
export function CalculatedFields({ index }: { index: number }) {
  const { t } = useTranslation('question-kinds');
  const { set, error } = useQuestionField(index);
  const stored = useQuestionValue(index, 'calculated');
  const title = useQuestionValue(index, 'title') ?? '';
  const content = useQuestionValue(index, 'content') ?? '';
  const calculated: Calculated = stored ?? { formula: '', variables: [], answerDecimals: null, values: null };
  const variables = calculated.variables ?? [];
  const n = index + 1;
  const change = (next: Partial<Calculated>) => set('calculated', { ...calculated, ...next });
  const editVariable = (i: number, next: Partial<Variable>) =>
    change({ variables: variables.map((v, k) => (k === i ? { ...v, ...next } : v)) });
  // Checked as it is typed, against the variables as they stand; the schema's message shows after a save too.
  const liveIssue = formulaIssue(
    calculated.formula ?? '',
    variables.map((v) => v.name),
  );
  const formulaError = calculated.formula?.trim() ? liveIssue : error('calculated.formula');
  const samples = calculatedSamples(calculated, [title, content].filter((s) => s.trim() !== '').join(' — '));
  return (
    <div className="flex flex-col gap-4">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-ink">{t('calculated.variables', { n })}</legend>
        <p className="text-xs text-muted">{t('calculated.variablesHint', { example: '{x}' })}</p>
        <ul className="flex flex-col gap-2">
          {variables.map((variable, i) => {
            const k = i + 1;
            const rowError = error(`calculated.variables.${i}.name`) ?? error(`calculated.variables.${i}.max`);
            return (
              <li key={i} className="flex flex-col gap-1">
                <div className="flex flex-wrap items-center gap-2">
                  <Input
                    aria-label={t('calculated.name', { n, k })}
                    className="w-28 font-mono"
                    value={variable.name ?? ''}
                    onChange={(e) => editVariable(i, { name: e.target.value.trim() })}
                  />
                  <Input
                    aria-label={t('calculated.min', { n, k })}
                    type="number"
                    step="any"
                    className="w-28"
                    value={Number.isFinite(variable.min) ? variable.min : ''}
                    onChange={(e) => editVariable(i, { min: numberOrNaN(e.target.value) })}
                  />
                  <Input
                    aria-label={t('calculated.max', { n, k })}
                    type="number"
                    step="any"
                    className="w-28"
                    value={Number.isFinite(variable.max) ? variable.max : ''}
                    onChange={(e) => editVariable(i, { max: numberOrNaN(e.target.value) })}
                  />
                  <Input
                    aria-label={t('calculated.decimals', { n, k })}
                    type="number"
                    min={0}
                    max={6}
                    step={1}
                    className="w-24"
                    value={variable.decimals ?? 0}
                    onChange={(e) => editVariable(i, { decimals: Number(e.target.value) || 0 })}
                  />
                  <RemoveButton
                    label={t('calculated.remove', { n, k })}
                    onClick={() => change({ variables: variables.filter((_v, j) => j !== i) })}
                  />
                </div>
                {rowError && <p className="text-xs text-danger">{rowError}</p>}
              </li>
            );
          })}
        </ul>
        <div>
          <AddButton
            label={t('calculated.addLabel', { n })}
            disabled={variables.length >= 20}
            onClick={() =>
              change({ variables: [...variables, { name: nextName(variables), min: 1, max: 10, decimals: 0 }] })
            }
          >
            {t('calculated.add')}
          </AddButton>
        </div>
      </fieldset>
      <Field
        label={t('calculated.formula', { n })}
        hint={t('calculated.formulaHint')}
        error={formulaError ?? undefined}
      >
        <Input
          className="font-mono"
          placeholder={t('calculated.formulaPlaceholder')}
          value={calculated.formula ?? ''}
          onChange={(e) => change({ formula: e.target.value })}
        />
      </Field>
      <Field label={t('calculated.answerDecimals', { n })} hint={t('calculated.answerDecimalsHint')} className="w-56">
        <Input
          type="number"
          min={0}
          max={10}
          step={1}
          inputMode="numeric"
          value={calculated.answerDecimals ?? ''}
          onChange={(e) => change({ answerDecimals: e.target.value === '' ? null : Number(e.target.value) })}
        />
      </Field>
      <CalculatedSamples index={index} samples={samples} />
      <ToleranceFields index={index} example={samples?.[0]?.key} />
      <UnitsFields index={index} />
    </div>
  );
}

/** x, y, z, then a, b, c…: the first letter no variable has yet. */
function nextName(variables: readonly Variable[]): string {
  const taken = new Set(variables.map((v) => v.name));
  return [...'xyzabcdefghijklmnopqrstuvw'].find((c) => !taken.has(c)) ?? `v${variables.length + 1}`;
}
