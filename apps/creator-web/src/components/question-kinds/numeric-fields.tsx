import { FieldAlert } from './list-controls.tsx';
import { useTranslation } from 'react-i18next';
import { StringListEditor } from '../string-list-editor.tsx';
import { ToleranceFields } from './tolerance-fields.tsx';
import { UnitsFields } from './units-fields.tsx';
import { useQuestionField, useQuestionValue } from './use-question-field.ts';

/** A numeric question: the right value(s) in the unit with multiplier 1, the tolerance and the units. */
export function NumericFields({ index }: { index: number }) {
  const { t } = useTranslation('question-kinds');
  const { set, error } = useQuestionField(index);
  const values = useQuestionValue(index, 'acceptedAnswers') ?? [];
  const n = index + 1;
  const listError = error('acceptedAnswers');
  return (
    <div className="flex flex-col gap-4">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-ink">{t('numeric.legend', { n })}</legend>
        <p className="text-xs text-muted">{t('numeric.hint')}</p>
        <StringListEditor
          values={values}
          onChange={(next) => set('acceptedAnswers', next)}
          itemLabel={(i) => t('numeric.value', { n, k: i + 1 })}
          removeLabel={(i) => t('numeric.remove', { n, k: i + 1 })}
          placeholder={() => t('numeric.placeholder')}
          addLabel={t('numeric.addLabel', { n })}
          addText={t('numeric.add')}
          minItems={1}
          errors={values.map((_v, i) => error(`acceptedAnswers.${i}`))}
        />
        <FieldAlert message={listError} />
      </fieldset>
      <ToleranceFields index={index} example={values.find((v) => v.trim() !== '')?.trim()} />
      <UnitsFields index={index} />
    </div>
  );
}
