import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS } from '@exam/domain/privacy';
import { Controller, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ExamFormInput } from './exam-form-model.ts';

/**
 * How long candidates' attempts are kept (the exam's retentionDays, @exam/domain/privacy): until deleted by hand, the
 * default and said so, or a number of days after submission, when the retention job deletes them in every service.
 * Only the owner sets it (exam-service refuses anyone else): for other roles it shows, disabled, and says why.
 */
export function RetentionField({ disabled = false }: { disabled?: boolean }) {
  const { t } = useTranslation('editor');
  const { control, formState } = useFormContext<ExamFormInput>();
  const error = formState.errors.retentionDays?.message;
  return (
    <Controller
      control={control}
      name="retentionDays"
      render={({ field }) => {
        const days = field.value ?? null;
        return (
          <fieldset
            className="rounded-lg border border-line p-4"
            disabled={disabled}
            aria-describedby={disabled ? 'retention-hint retention-owner-only' : 'retention-hint'}
          >
            <legend className="px-1 text-sm font-medium text-ink">{t('retentionField.legend')}</legend>
            <p id="retention-hint" className="text-sm text-muted">
              {t('retentionField.hint')}
            </p>
            {disabled && (
              <p id="retention-owner-only" className="mt-1 text-sm text-muted">
                {t('retentionField.ownerOnly')}
              </p>
            )}
            <div className="mt-2 flex flex-col gap-2 text-sm">
              <label className="flex cursor-pointer items-center gap-3">
                <input
                  type="radio"
                  name="retentionMode"
                  checked={days === null}
                  onChange={() => field.onChange(null)}
                  className="accent-brand-600"
                />
                <span className="font-medium text-ink">{t('retentionField.keep')}</span>
              </label>
              <label className="flex cursor-pointer items-center gap-3">
                <input
                  type="radio"
                  name="retentionMode"
                  checked={days !== null}
                  onChange={() => field.onChange(days ?? 365)}
                  className="accent-brand-600"
                />
                <span className="font-medium text-ink">{t('retentionField.deleteAfter')}</span>
              </label>
              {days !== null && (
                <label className="ml-7 flex items-center gap-2">
                  <input
                    type="number"
                    min={MIN_RETENTION_DAYS}
                    max={MAX_RETENTION_DAYS}
                    step={1}
                    value={Number.isFinite(days) ? days : ''}
                    onChange={(e) => field.onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))}
                    onBlur={field.onBlur}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? 'retention-error' : undefined}
                    className="w-24 rounded-md border border-line bg-surface px-2 py-1 text-ink"
                  />
                  <span className="text-ink">{t('retentionField.days')}</span>
                </label>
              )}
              {error && (
                <p id="retention-error" role="alert" className="text-sm text-danger">
                  {error}
                </p>
              )}
            </div>
          </fieldset>
        );
      }}
    />
  );
}
