import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { useTranslation } from 'react-i18next';
import { CheckboxField } from '../checkbox-field.tsx';
import { useQuestionField, useQuestionValue } from './use-question-field.ts';

/** A blank limit is "no limit" (null), not zero words. */
const wordsOrNull = (value: string) => (value.trim() === '' ? null : Number(value));

/** An essay's word limits and editor (question-kinds.ts EssaySettings); a person always marks it. */
export function EssayFields({ index }: { index: number }) {
  const { t } = useTranslation('question-kinds');
  const { set, error } = useQuestionField(index);
  const essay = useQuestionValue(index, 'essay');
  const n = index + 1;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap gap-4">
        <Field label={t('essay.minWords', { n })} hint={t('essay.blankNoLimit')} error={error('essay.minWords')}>
          <Input
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            className="w-40"
            value={essay?.minWords ?? ''}
            onChange={(e) => set('essay.minWords', wordsOrNull(e.target.value))}
          />
        </Field>
        <Field label={t('essay.maxWords', { n })} hint={t('essay.blankNoLimit')} error={error('essay.maxWords')}>
          <Input
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            className="w-40"
            value={essay?.maxWords ?? ''}
            onChange={(e) => set('essay.maxWords', wordsOrNull(e.target.value))}
          />
        </Field>
      </div>
      <CheckboxField
        label={t('essay.formatted')}
        checked={essay?.formatted ?? false}
        onChange={(on) => set('essay.formatted', on)}
      />
      <p className="text-sm text-muted">{t('essay.markedByPerson')}</p>
    </div>
  );
}
