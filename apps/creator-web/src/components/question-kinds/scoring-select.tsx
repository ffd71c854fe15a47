import { Field } from '@exam/ui/field';
import { Select } from '@exam/ui/select';
import { useTranslation } from 'react-i18next';
import { useQuestionField, useQuestionValue } from './use-question-field.ts';

/** All-or-nothing or partial credit, with the one line that says how partial credit is counted for this type. */
export function ScoringSelect({ index, partialRule }: { index: number; partialRule: string }) {
  const { t } = useTranslation('question-kinds');
  const { set } = useQuestionField(index);
  const scoring = useQuestionValue(index, 'scoring') ?? 'all-or-nothing';
  return (
    <Field
      label={t('scoring.label', { n: index + 1 })}
      hint={scoring === 'partial' ? partialRule : t('scoring.allOrNothingRule')}
      className="max-w-md"
    >
      <Select
        value={scoring}
        options={[
          { value: 'all-or-nothing', label: t('scoring.allOrNothing') },
          { value: 'partial', label: t('scoring.partial') },
        ]}
        onValueChange={(v) => set('scoring', v as 'all-or-nothing' | 'partial')}
      />
    </Field>
  );
}
