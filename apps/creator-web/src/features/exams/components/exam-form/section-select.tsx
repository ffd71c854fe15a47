import { Field } from '@exam/ui/field';
import { Select } from '@exam/ui/select';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ExamFormInput } from './exam-form-model.ts';

/**
 * Puts a question in one of the exam's sections (sections-card.tsx); shown once the exam has a section. A question
 * naming none is sat in the first section (sections.ts), so that is what the select shows for it.
 */
export function SectionSelect({ index }: { index: number }) {
  const { t } = useTranslation('editor');
  const { control, setValue, formState } = useFormContext<ExamFormInput>();
  const sections = useWatch({ control, name: 'sections' }) ?? [];
  const sectionId = useWatch({ control, name: `questions.${index}.sectionId` }) ?? null;
  const first = sections[0];
  if (!first) return null;
  const known = sections.some((s) => s.id === sectionId);
  const options = sections.map((s, i) => ({
    value: s.id,
    label: s.title?.trim() || t('sectionSelect.sectionValue', { value: i + 1 }),
  }));
  return (
    <Field
      label={t('sectionSelect.questionValueSection', { value: index + 1 })}
      error={formState.errors.questions?.[index]?.sectionId?.message}
      className="max-w-72"
    >
      <Select
        value={known && sectionId ? sectionId : first.id}
        options={options}
        onValueChange={(v) => setValue(`questions.${index}.sectionId`, v, { shouldDirty: true })}
      />
    </Field>
  );
}
