import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { SwitchField } from '@exam/ui/switch';
import { Plus, Trash2 } from 'lucide-react';
import { Controller, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import type { ExamFormInput } from './exam-form-model.ts';
import { useTranslation } from 'react-i18next';

function PoolEditor({ index, onRemove }: { index: number; onRemove: () => void }) {
  const { t } = useTranslation('editor');
  const { control, register, formState } = useFormContext<ExamFormInput>();
  const poolId = useWatch({ control, name: `pools.${index}.id` });
  const questions = useWatch({ control, name: 'questions' }) ?? [];
  const size = questions.filter((q) => q.poolId === poolId).length;
  const errors = formState.errors.pools?.[index];
  const n = index + 1;
  return (
    <section
      aria-label={t('orderPoolsCard.poolN', { n })}
      className="flex flex-wrap items-end gap-3 rounded-lg border border-line p-4"
    >
      <Field label={t('orderPoolsCard.poolNTitle', { n })} error={errors?.title?.message} className="min-w-56 flex-1">
        <Input placeholder={t('orderPoolsCard.eGCellBiology')} {...register(`pools.${index}.title`)} />
      </Field>
      <Field label={t('orderPoolsCard.poolNQuestionsDrawn', { n })} error={errors?.draw?.message} className="w-40">
        <Input type="number" min={1} step={1} {...register(`pools.${index}.draw`, { valueAsNumber: true })} />
      </Field>
      <Field label={t('orderPoolsCard.poolNPointsPer', { n })} error={errors?.points?.message} className="w-40">
        <Input type="number" min={0.01} step={0.01} {...register(`pools.${index}.points`, { valueAsNumber: true })} />
      </Field>
      <p className="pb-2 text-sm text-muted">{t('orderPoolsCard.inThePool', { count: size })}</p>
      <Button
        variant="ghost"
        size="sm"
        className="text-danger"
        aria-label={t('orderPoolsCard.removePoolN', { n })}
        onClick={onRemove}
      >
        <Trash2 aria-hidden className="h-4 w-4" /> {t('orderPoolsCard.remove')}
      </Button>
    </section>
  );
}

/**
 * Each candidate's order and draw (docs/product.md#cohorts): shuffled questions and options, and pools from
 * which every candidate draws N questions worth the same points. Questions join a pool in their editor.
 */
export function OrderPoolsCard() {
  const { t } = useTranslation('editor');
  const { control, getValues, setValue } = useFormContext<ExamFormInput>();
  const pools = useFieldArray({ control, name: 'pools', keyName: 'key' });
  const removePool = (index: number) => {
    const id = getValues(`pools.${index}.id`);
    // Its questions go back to being asked of everyone rather than naming a pool that is gone.
    (getValues('questions') ?? []).forEach((q, i) => {
      if (q.poolId === id) setValue(`questions.${i}.poolId`, null, { shouldDirty: true });
    });
    pools.remove(index);
  };
  return (
    <Card>
      <CardHeader title={t('orderPoolsCard.orderAndPools')} description={t('orderPoolsCard.eachCandidateSOrder')} />
      <CardBody className="flex flex-col gap-4">
        <div className="grid gap-4 md:grid-cols-2">
          <Controller
            control={control}
            name="shuffleQuestions"
            render={({ field }) => (
              <SwitchField
                label={t('orderPoolsCard.shuffleQuestionOrder')}
                hint={t('orderPoolsCard.everyCandidateGetsThe')}
                checked={field.value ?? false}
                onCheckedChange={field.onChange}
                className="rounded-lg border border-line p-4"
              />
            )}
          />
          <Controller
            control={control}
            name="shuffleOptions"
            render={({ field }) => (
              <SwitchField
                label={t('orderPoolsCard.shuffleAnswerOptions')}
                hint={t('orderPoolsCard.multipleChoiceOptionsAppear')}
                checked={field.value ?? false}
                onCheckedChange={field.onChange}
                className="rounded-lg border border-line p-4"
              />
            )}
          />
        </div>
        <div className="flex flex-col gap-3">
          <h3 className="text-sm font-semibold text-ink">{t('orderPoolsCard.questionPools')}</h3>
          <p className="-mt-2 text-sm text-muted">{t('orderPoolsCard.eachCandidateDrawsThe')}</p>
          {pools.fields.map((field, i) => (
            <PoolEditor key={field.key} index={i} onRemove={() => removePool(i)} />
          ))}
          <Button
            variant="secondary"
            className="self-start"
            onClick={() => pools.append({ id: crypto.randomUUID(), title: '', draw: 1, points: 1 })}
          >
            <Plus aria-hidden className="h-4 w-4" /> {t('orderPoolsCard.addPool')}
          </Button>
        </div>
      </CardBody>
    </Card>
  );
}
