import { DEFAULT_REVIEW } from '@exam/domain/practice';
import { Button } from '@exam/ui/button';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { fromLocalInputValue, toLocalInputValue } from '@exam/ui/lib/local-time';
import { SwitchField } from '@exam/ui/switch';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CheckboxField } from '../../../../components/checkbox-field.tsx';
import type { ExamFormInput } from './exam-form-model.ts';

/**
 * A practice exam, and the review window of a real one (docs/product.md#practice-and-review): beside the release
 * policy and the answer keys, since all of them say what candidates see after answering.
 */
export function PracticeReviewFields() {
  const { t } = useTranslation('editor');
  const { control, setValue, formState } = useFormContext<ExamFormInput>();
  const practice = useWatch({ control, name: 'practice' }) ?? false;
  const review = useWatch({ control, name: 'review' }) ?? DEFAULT_REVIEW;
  const setReview = (next: Partial<typeof review>) =>
    setValue('review', { ...DEFAULT_REVIEW, ...review, ...next }, { shouldDirty: true });
  const closesAtError = formState.errors.review?.closesAt?.message;
  return (
    <div className="grid gap-5 md:grid-cols-2">
      <div className="rounded-lg border border-line p-4">
        <Controller
          control={control}
          name="practice"
          render={({ field }) => (
            <SwitchField
              label={t('practice.label')}
              hint={t('practice.hint')}
              checked={field.value ?? false}
              onCheckedChange={field.onChange}
            />
          )}
        />
      </div>
      <div className="flex flex-col gap-3 rounded-lg border border-line p-4">
        <SwitchField
          label={t('review.label')}
          hint={practice ? t('review.practiceHint') : t('review.hint')}
          checked={review.enabled ?? false}
          onCheckedChange={(on) => setReview({ enabled: on })}
        />
        {review.enabled && (
          <>
            <div className="flex items-end gap-2">
              <Field
                label={t('review.closesAt')}
                hint={t('review.closesAtHint')}
                error={closesAtError}
                className="flex-1"
              >
                <Input
                  type="datetime-local"
                  value={toLocalInputValue(review.closesAt ?? null)}
                  onChange={(e) => setReview({ closesAt: fromLocalInputValue(e.target.value) })}
                />
              </Field>
              {review.closesAt && (
                <Button
                  variant="ghost"
                  size="sm"
                  className="mb-6"
                  aria-label={t('review.clearClosesAt')}
                  onClick={() => setReview({ closesAt: null })}
                >
                  {t('availabilityCard.clear')}
                </Button>
              )}
            </div>
            <CheckboxField
              label={t('review.showFeedback')}
              checked={review.showFeedback ?? true}
              onChange={(on) => setReview({ showFeedback: on })}
            />
          </>
        )}
      </div>
    </div>
  );
}
