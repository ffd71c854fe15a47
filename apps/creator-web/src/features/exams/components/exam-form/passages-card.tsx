import { MAX_PASSAGES } from '@exam/domain/passages';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { ConfirmDialog } from '@exam/ui/dialog';
import { Field } from '@exam/ui/field';
import { Input, Textarea } from '@exam/ui/input';
import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { RichTextField } from '../../../../components/rich-text-field.tsx';
import type { ExamFormInput } from './exam-form-model.ts';

function PassageEditor({ index, onRemove }: { index: number; onRemove: () => void }) {
  const { t } = useTranslation('editor');
  const { control, register, formState } = useFormContext<ExamFormInput>();
  const content = useWatch({ control, name: `passages.${index}.content` }) ?? '';
  const errors = formState.errors.passages?.[index];
  const n = index + 1;
  return (
    <section
      aria-label={t('passages.passageN', { n })}
      className="flex flex-col gap-3 rounded-lg border border-line p-4"
    >
      <div className="flex flex-wrap items-end justify-between gap-3">
        <Field
          label={t('passages.passageNTitle', { n })}
          error={errors?.title?.message ?? errors?.id?.message}
          className="min-w-56 flex-1"
        >
          <Input placeholder={t('passages.titlePlaceholder')} {...register(`passages.${index}.title`)} />
        </Field>
        <Button
          variant="ghost"
          size="sm"
          className="text-danger hover:bg-red-50"
          aria-label={t('passages.removePassageN', { n })}
          onClick={onRemove}
        >
          <Trash2 aria-hidden className="h-4 w-4" /> {t('passages.remove')}
        </Button>
      </div>
      <RichTextField label={t('passages.passageNContent', { n })} error={errors?.content?.message} text={content}>
        <Textarea rows={6} placeholder={t('passages.contentPlaceholder')} {...register(`passages.${index}.content`)} />
      </RichTextField>
    </section>
  );
}

/**
 * The exam's shared passages (docs/product.md#shared-passages): a reading, a case or a table written once and shown
 * beside every question that names it (each question's "Passage" select).
 */
export function PassagesCard() {
  const { t } = useTranslation('editor');
  const { control, getValues, setValue } = useFormContext<ExamFormInput>();
  const passages = useFieldArray({ control, name: 'passages', keyName: 'key' });
  const [confirming, setConfirming] = useState<{ index: number; used: number } | null>(null);

  const usersOf = (index: number) => {
    const id = getValues(`passages.${index}.id`);
    return (getValues('questions') ?? []).flatMap((q, i) => (q.passageId === id ? [i] : []));
  };
  const remove = (index: number) => {
    // The questions that showed it show none rather than naming a passage that is gone.
    for (const i of usersOf(index)) setValue(`questions.${i}.passageId`, null, { shouldDirty: true });
    passages.remove(index);
  };
  const askToRemove = (index: number) => {
    const used = usersOf(index).length;
    if (used === 0) remove(index);
    else setConfirming({ index, used });
  };

  return (
    <Card>
      <CardHeader title={t('passages.title')} description={t('passages.description')} />
      <CardBody className="flex flex-col gap-3">
        {passages.fields.length === 0 && <p className="text-sm text-muted">{t('passages.none')}</p>}
        {passages.fields.map((field, i) => (
          <PassageEditor key={field.key} index={i} onRemove={() => askToRemove(i)} />
        ))}
        <Button
          variant="secondary"
          className="self-start"
          disabled={passages.fields.length >= MAX_PASSAGES}
          onClick={() => passages.append({ id: crypto.randomUUID(), title: '', content: '' }, { shouldFocus: false })}
        >
          <Plus aria-hidden className="h-4 w-4" /> {t('passages.add')}
        </Button>
        <ConfirmDialog
          open={confirming !== null}
          onOpenChange={(open) => !open && setConfirming(null)}
          title={t('passages.confirmTitle', { n: (confirming?.index ?? 0) + 1 })}
          description={t('passages.confirmDescription', { count: confirming?.used ?? 0 })}
          confirmLabel={t('passages.confirmRemove')}
          destructive
          onConfirm={() => {
            if (confirming) remove(confirming.index);
            setConfirming(null);
          }}
        />
      </CardBody>
    </Card>
  );
}
