import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input, Textarea } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { SwitchField } from '@exam/ui/switch';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import type { ReleasePolicy } from '@exam/domain/exam';
import { RichTextField } from '../../../../components/rich-text-field.tsx';
import type { ExamFormInput } from './exam-form-model.ts';
import { QuestionDisplayField } from './question-display-field.tsx';
import { PracticeReviewFields } from './practice-review-fields.tsx';
import { RetentionField } from './retention-field.tsx';
import { UnansweredPolicyField } from './unanswered-policy-field.tsx';
import { CheckboxField } from '../../../../components/checkbox-field.tsx';
import { useTranslation } from 'react-i18next';

const RELEASE_OPTIONS = [
  { value: 'never', label: 'detailsCard.release.never' },
  { value: 'on-release', label: 'detailsCard.release.onRelease' },
  { value: 'immediately', label: 'detailsCard.release.immediately' },
] as const;

export function DetailsCard({ canSetRetention = true }: { canSetRetention?: boolean }) {
  const { t } = useTranslation('editor');
  const { register, control, formState } = useFormContext<ExamFormInput>();
  const timerEnabled = useWatch({ control, name: 'timerEnabled' });
  const description = useWatch({ control, name: 'description' }) ?? '';
  const rules = useWatch({ control, name: 'rules' }) ?? '';
  const { errors } = formState;
  return (
    <Card>
      <CardHeader title={t('detailsCard.examDetails')} description={t('detailsCard.whatCandidatesSeeFirst')} />
      <CardBody className="flex flex-col gap-5">
        <Field label={t('detailsCard.examTitle')} error={errors.title?.message}>
          <Input placeholder={t('detailsCard.eGDataStructures')} {...register('title')} />
        </Field>
        <RichTextField
          label={t('detailsCard.description')}
          hint={t('detailsCard.shownToCandidatesBefore')}
          error={errors.description?.message}
          text={description}
        >
          <Textarea rows={4} placeholder={t('detailsCard.whatThisExamCovers')} {...register('description')} />
        </RichTextField>
        <RichTextField
          label={t('detailsCard.rules')}
          hint={t('detailsCard.shownToCandidatesOn')}
          error={errors.rules?.message}
          text={rules}
        >
          <Textarea rows={4} placeholder={t('detailsCard.eGNoNotes')} {...register('rules')} />
        </RichTextField>
        <div className="grid gap-5 md:grid-cols-2">
          <div className="flex flex-col gap-3 rounded-lg border border-line p-4">
            <Controller
              control={control}
              name="timerEnabled"
              render={({ field }) => (
                <SwitchField
                  label={t('detailsCard.enableTimer')}
                  hint={t('detailsCard.submitAutomaticallyWhenTime')}
                  checked={field.value ?? false}
                  onCheckedChange={field.onChange}
                />
              )}
            />
            {timerEnabled && (
              <Field label={t('detailsCard.durationMinutes')} error={errors.timerMinutes?.message}>
                <Input
                  type="number"
                  min={1}
                  step={1}
                  inputMode="numeric"
                  className="max-w-40"
                  {...register('timerMinutes', { valueAsNumber: true })}
                />
              </Field>
            )}
          </div>
          <div className="rounded-lg border border-line p-4">
            <Controller
              control={control}
              name="fullScreenEnabled"
              render={({ field }) => (
                <SwitchField
                  label={t('detailsCard.fullscreenMode')}
                  hint={t('detailsCard.candidatesMustStayIn')}
                  checked={field.value ?? false}
                  onCheckedChange={field.onChange}
                />
              )}
            />
          </div>
        </div>
        <QuestionDisplayField />
        <div className="grid gap-5 md:grid-cols-2">
          <Controller
            control={control}
            name="releasePolicy"
            render={({ field }) => (
              <Field label={t('detailsCard.resultsForCandidates')} hint={t('detailsCard.whenCandidatesCanSee')}>
                <Select
                  value={field.value ?? 'on-release'}
                  options={RELEASE_OPTIONS.map((o) => ({ value: o.value, label: t(o.label) }))}
                  onValueChange={(v) => field.onChange(v as ReleasePolicy)}
                />
              </Field>
            )}
          />
          <Controller
            control={control}
            name="showAnswerKeys"
            render={({ field }) => (
              <CheckboxField
                label={t('detailsCard.showAnswerKeysIn')}
                checked={field.value ?? false}
                onChange={field.onChange}
              />
            )}
          />
        </div>
        <UnansweredPolicyField />
        <PracticeReviewFields />
        <RetentionField disabled={!canSetRetention} />
      </CardBody>
    </Card>
  );
}
