import { RemoveButton, AddButton, FieldAlert } from './list-controls.tsx';
import { Input } from '@exam/ui/input';
import { useTranslation } from 'react-i18next';
import { CheckboxField } from '../checkbox-field.tsx';
import { useQuestionField, useQuestionValue } from './use-question-field.ts';

/**
 * The units a numeric or calculated answer may be given in (question-kinds.ts UnitSettings): the key is in the unit
 * whose multiplier is 1, and an answer in a unit with multiplier m is that value × m.
 */
export function UnitsFields({ index }: { index: number }) {
  const { t } = useTranslation('question-kinds');
  const { set, error } = useQuestionField(index);
  const settings = useQuestionValue(index, 'units');
  const units = settings?.units ?? [];
  const n = index + 1;
  const edit = (i: number, change: { symbol?: string; multiplier?: number }) =>
    set(
      'units.units',
      units.map((u, k) => (k === i ? { symbol: u.symbol ?? '', multiplier: u.multiplier ?? 1, ...change } : u)),
    );
  const listError = error('units.units');
  const requiredError = error('units.required');
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-ink">{t('units.legend', { n })}</legend>
      <p className="text-xs text-muted">{t('units.hint')}</p>
      <ul className="flex flex-col gap-2">
        {units.map((unit, i) => {
          const symbolError = error(`units.units.${i}.symbol`) ?? error(`units.units.${i}.multiplier`);
          return (
            <li key={i} className="flex flex-col gap-1">
              <div className="flex items-center gap-2">
                <Input
                  aria-label={t('units.symbol', { n, k: i + 1 })}
                  aria-invalid={symbolError ? true : undefined}
                  placeholder={t('units.symbolPlaceholder')}
                  className="w-32"
                  value={unit.symbol ?? ''}
                  onChange={(e) => edit(i, { symbol: e.target.value })}
                />
                <Input
                  aria-label={t('units.multiplier', { n, k: i + 1 })}
                  type="number"
                  min={0}
                  step="any"
                  inputMode="decimal"
                  className="w-40"
                  value={Number.isFinite(unit.multiplier) ? unit.multiplier : ''}
                  onChange={(e) => edit(i, { multiplier: Number(e.target.value) })}
                />
                <RemoveButton
                  label={t('units.remove', { n, k: i + 1 })}
                  onClick={() =>
                    set(
                      'units.units',
                      units.filter((_u, k) => k !== i),
                    )
                  }
                />
              </div>
              {symbolError && <p className="text-xs text-danger">{symbolError}</p>}
            </li>
          );
        })}
      </ul>
      <FieldAlert message={listError} />
      <div>
        <AddButton
          label={t('units.addLabel', { n })}
          disabled={units.length >= 20}
          onClick={() => set('units.units', [...units, { symbol: '', multiplier: 1 }])}
        >
          {t('units.add')}
        </AddButton>
      </div>
      <CheckboxField
        label={t('units.required', { n })}
        checked={settings?.required ?? false}
        onChange={(on) => set('units.required', on)}
      />
      <FieldAlert message={requiredError} />
    </fieldset>
  );
}
