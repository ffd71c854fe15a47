import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { Plus, Trash2 } from 'lucide-react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import type { ExamFormInput } from './exam-form-model.ts';
import { useTranslation } from 'react-i18next';

const newCriterion = () => ({ id: crypto.randomUUID(), description: '', points: 1 });

function RubricEditor({ index, onRemove }: { index: number; onRemove: () => void }) {
  const { t } = useTranslation('editor');
  const { control, register, formState } = useFormContext<ExamFormInput>();
  const criteria = useFieldArray({ control, name: `rubrics.${index}.criteria`, keyName: 'key' });
  const errors = formState.errors.rubrics?.[index];
  const n = index + 1;
  return (
    <section
      aria-label={t('rubricsCard.rubricN', { n })}
      className="flex flex-col gap-3 rounded-lg border border-line p-4"
    >
      <div className="flex items-end gap-2">
        <Field label={t('rubricsCard.rubricTitle')} error={errors?.title?.message} className="flex-1">
          <Input placeholder={t('rubricsCard.eGEssayMarking')} {...register(`rubrics.${index}.title`)} />
        </Field>
        <Button
          variant="ghost"
          size="sm"
          className="text-danger"
          aria-label={t('rubricsCard.removeRubricN', { n })}
          onClick={onRemove}
        >
          <Trash2 aria-hidden className="h-4 w-4" /> {t('rubricsCard.remove')}
        </Button>
      </div>
      {criteria.fields.map((field, c) => (
        <div key={field.key} className="flex flex-wrap items-end gap-2">
          <Field
            label={t('rubricsCard.criterionDescription')}
            error={errors?.criteria?.[c]?.description?.message}
            className="min-w-56 flex-1"
          >
            <Input {...register(`rubrics.${index}.criteria.${c}.description`)} />
          </Field>
          <Field
            label={t('rubricsCard.criterionPoints')}
            error={errors?.criteria?.[c]?.points?.message}
            className="w-36"
          >
            <Input
              type="number"
              min={0.01}
              step={0.01}
              {...register(`rubrics.${index}.criteria.${c}.points`, { valueAsNumber: true })}
            />
          </Field>
          <Button
            variant="ghost"
            size="icon"
            aria-label={t('rubricsCard.removeCriterionValueOf', { value: c + 1, n })}
            onClick={() => criteria.remove(c)}
          >
            <Trash2 aria-hidden className="h-4 w-4" />
          </Button>
        </div>
      ))}
      {errors?.criteria?.message && (
        <p role="alert" className="text-xs text-danger">
          {errors.criteria.message}
        </p>
      )}
      <Button variant="secondary" size="sm" className="self-start" onClick={() => criteria.append(newCriterion())}>
        <Plus aria-hidden className="h-4 w-4" /> {t('rubricsCard.addCriterion')}
      </Button>
    </section>
  );
}

/**
 * Marking schemes kept on the exam and reusable across its questions (docs/product.md#results-and-grading);
 * ids are made here so a question can name its rubric before the exam is saved.
 */
export function RubricsCard() {
  const { t } = useTranslation('editor');
  const { control } = useFormContext<ExamFormInput>();
  const rubrics = useFieldArray({ control, name: 'rubrics', keyName: 'key' });
  return (
    <Card>
      <CardHeader title={t('rubricsCard.rubrics')} description={t('rubricsCard.criteriaWithPointsThat')} />
      <CardBody className="flex flex-col gap-4">
        {rubrics.fields.map((field, i) => (
          <RubricEditor key={field.key} index={i} onRemove={() => rubrics.remove(i)} />
        ))}
        <Button
          variant="secondary"
          className="self-start"
          onClick={() => rubrics.append({ id: crypto.randomUUID(), title: '', criteria: [newCriterion()] })}
        >
          <Plus aria-hidden className="h-4 w-4" /> {t('rubricsCard.addRubric')}
        </Button>
      </CardBody>
    </Card>
  );
}
