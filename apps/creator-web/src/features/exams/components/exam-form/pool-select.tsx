import { Field } from '@exam/ui/field';
import { Select } from '@exam/ui/select';
import { useFormContext, useWatch } from 'react-hook-form';
import type { ExamFormInput } from './exam-form-model.ts';
import { useTranslation } from 'react-i18next';

const NO_POOL = '__none__';

/** Puts a question in one of the exam's pools (order-pools-card.tsx); shown once the exam has a pool. */
export function PoolSelect({ index }: { index: number }) {
  const { t } = useTranslation('editor');
  const { control, setValue, formState } = useFormContext<ExamFormInput>();
  const pools = useWatch({ control, name: 'pools' }) ?? [];
  const poolId = useWatch({ control, name: `questions.${index}.poolId` }) ?? null;
  if (pools.length === 0) return null;
  const pool = pools.find((p) => p.id === poolId);
  const options = [
    { value: NO_POOL, label: t('poolSelect.noneEveryCandidate') },
    ...pools.map((p, i) => ({ value: p.id, label: p.title?.trim() || t('poolSelect.poolValue', { value: i + 1 }) })),
  ];
  return (
    <Field
      label={t('poolSelect.questionValuePool', { value: index + 1 })}
      hint={pool ? t('poolSelect.worthThePoolS', { value: pool.points ?? 1 }) : undefined}
      error={formState.errors.questions?.[index]?.poolId?.message}
      className="max-w-72"
    >
      <Select
        value={poolId ?? NO_POOL}
        options={options}
        onValueChange={(v) => setValue(`questions.${index}.poolId`, v === NO_POOL ? null : v, { shouldDirty: true })}
      />
    </Field>
  );
}
