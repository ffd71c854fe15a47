import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { SwitchField } from '@exam/ui/switch';
import { MAX_SECTIONS } from '@exam/domain/sections';
import { Plus } from 'lucide-react';
import { Controller, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ExamFormInput } from './exam-form-model.ts';
import { ReorderControls } from './reorder-controls.tsx';

/** A blank time limit is "no limit of its own" (null), not zero minutes. */
const minutesOrNull = (value: unknown) =>
  value === '' || value === null || value === undefined ? null : Number(value);

type EditorProps = { index: number; count: number; onRemove: () => void; onMove: (to: number) => void };

function SectionEditor({ index, count, onRemove, onMove }: EditorProps) {
  const { t } = useTranslation('editor');
  const { control, register, formState } = useFormContext<ExamFormInput>();
  const sections = useWatch({ control, name: 'sections' }) ?? [];
  const questions = useWatch({ control, name: 'questions' }) ?? [];
  const sectionId = sections[index]?.id;
  // A question naming no section (or one that is gone) is sat in the first (sections.ts sectionIndexOf).
  const size = questions.filter((q) =>
    q.sectionId && sections.some((s) => s.id === q.sectionId) ? q.sectionId === sectionId : index === 0,
  ).length;
  const errors = formState.errors.sections?.[index];
  const n = index + 1;
  return (
    <section
      aria-label={t('sectionsCard.sectionN', { n })}
      className="flex flex-col gap-3 rounded-lg border border-line p-4"
      data-testid={`section-editor-${index}`}
    >
      <div className="flex flex-wrap items-end gap-3">
        <Field
          label={t('sectionsCard.sectionNTitle', { n })}
          error={errors?.title?.message ?? errors?.id?.message}
          className="min-w-56 flex-1"
        >
          <Input placeholder={t('sectionsCard.titlePlaceholder')} {...register(`sections.${index}.title`)} />
        </Field>
        <Field
          label={t('sectionsCard.sectionNTimeLimit', { n })}
          hint={t('sectionsCard.timeLimitHint')}
          error={errors?.timeLimitMinutes?.message}
          className="w-56"
        >
          <Input
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            {...register(`sections.${index}.timeLimitMinutes`, { setValueAs: minutesOrNull })}
          />
        </Field>
        <p className="pb-2 text-sm text-muted">{t('sectionsCard.inTheSection', { count: size })}</p>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Controller
          control={control}
          name={`sections.${index}.assistant`}
          render={({ field }) => (
            <SwitchField
              label={t('sectionsCard.sectionNAssistant', { n })}
              hint={t('sectionsCard.assistantHint')}
              checked={field.value ?? true}
              onCheckedChange={field.onChange}
            />
          )}
        />
        <div className="flex items-center gap-1">
          <ReorderControls
            index={index}
            count={count}
            onMove={onMove}
            onRemove={onRemove}
            labels={{
              up: t('sectionsCard.moveSectionNUp', { n }),
              down: t('sectionsCard.moveSectionNDown', { n }),
              remove: t('sectionsCard.removeSectionN', { n }),
              removeText: t('sectionsCard.remove'),
            }}
          />
        </div>
      </div>
    </section>
  );
}

/**
 * The exam's sections (docs/product.md#sections): ordered parts, each saying whether the assistant answers in
 * it and, optionally, its own time limit. Questions are put in a section from their editor; a section a candidate
 * leaves is locked when a later one has the assistant, so the card says so.
 */
export function SectionsCard() {
  const { t } = useTranslation('editor');
  const { control, getValues, setValue } = useFormContext<ExamFormInput>();
  const sections = useFieldArray({ control, name: 'sections', keyName: 'key' });
  /**
   * Names the section every question is in before the list changes: a question naming none (or `gone`) is shown in
   * the first section, and must stay in the one it was shown in when the sections move, rather than follow
   * whichever section becomes first. `to` is where they go: the first section, unless it is the one leaving.
   */
  const pinQuestions = (gone: string | null, to: string | null) => {
    const ids = new Set((getValues('sections') ?? []).map((s) => s.id));
    (getValues('questions') ?? []).forEach((q, i) => {
      const unplaced = q.sectionId == null || !ids.has(q.sectionId) || q.sectionId === gone;
      if (unplaced && q.sectionId !== to) setValue(`questions.${i}.sectionId`, to, { shouldDirty: true });
    });
  };
  const firstId = (skip?: number) => (getValues('sections') ?? []).find((_s, i) => i !== skip)?.id ?? null;
  const removeSection = (index: number) => {
    // Its questions fall back to the first remaining section rather than naming one that is gone.
    pinQuestions(getValues(`sections.${index}.id`) ?? null, firstId(index));
    sections.remove(index);
  };
  const moveSection = (from: number, to: number) => {
    pinQuestions(null, firstId());
    sections.move(from, to);
  };
  const addSection = () => {
    const id = crypto.randomUUID();
    // The first section takes every question; later ones start empty.
    if (sections.fields.length === 0) pinQuestions(null, id);
    sections.append({ id, title: '', assistant: true, timeLimitMinutes: null });
  };
  return (
    <Card>
      <CardHeader title={t('sectionsCard.sections')} description={t('sectionsCard.description')} />
      <CardBody className="flex flex-col gap-3">
        {sections.fields.length === 0 && <p className="text-sm text-muted">{t('sectionsCard.none')}</p>}
        {sections.fields.map((field, i) => (
          <SectionEditor
            key={field.key}
            index={i}
            count={sections.fields.length}
            onRemove={() => removeSection(i)}
            onMove={(to) => moveSection(i, to)}
          />
        ))}
        <Button
          variant="secondary"
          className="self-start"
          disabled={sections.fields.length >= MAX_SECTIONS}
          onClick={addSection}
        >
          <Plus aria-hidden className="h-4 w-4" /> {t('sectionsCard.addSection')}
        </Button>
      </CardBody>
    </Card>
  );
}
