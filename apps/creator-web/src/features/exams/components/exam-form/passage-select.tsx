import { Field } from '@exam/ui/field';
import { Select } from '@exam/ui/select';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ExamFormInput } from './exam-form-model.ts';

/** Radix items cannot carry an empty value, so "no passage" travels as this and becomes null. */
const NO_PASSAGE = 'none';

/** Shows one of the exam's passages (passages-card.tsx) beside the question; shown once the exam has a passage. */
export function PassageSelect({ index }: { index: number }) {
  const { t } = useTranslation('editor');
  const { control, setValue, formState } = useFormContext<ExamFormInput>();
  const passages = useWatch({ control, name: 'passages' }) ?? [];
  const passageId = useWatch({ control, name: `questions.${index}.passageId` }) ?? null;
  if (passages.length === 0) return null;
  const known = passages.some((p) => p.id === passageId);
  const options = [
    { value: NO_PASSAGE, label: t('passages.noPassage') },
    ...passages.map((p, i) => ({ value: p.id, label: p.title?.trim() || t('passages.passageN', { n: i + 1 }) })),
  ];
  return (
    <Field
      label={t('passages.questionPassage', { n: index + 1 })}
      error={formState.errors.questions?.[index]?.passageId?.message}
      className="max-w-72"
    >
      <Select
        value={known && passageId ? passageId : NO_PASSAGE}
        options={options}
        onValueChange={(v) =>
          setValue(`questions.${index}.passageId`, v === NO_PASSAGE ? null : v, { shouldDirty: true })
        }
      />
    </Field>
  );
}
