import type { LiveAttempt } from '@exam/domain/live';
import { Button } from '@exam/ui/button';
import { Dialog } from '@exam/ui/dialog';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { toast } from '@exam/ui/toaster';
import { useEffect, useState, type FormEvent } from 'react';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useExtendTime } from '../api/extend-time.ts';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../i18n/index.ts';

/** Whole minutes, 1 to a day at a time (the override itself holds up to MAX_EXTRA_MINUTES). */
export const EXTEND_MAX_MINUTES = 24 * 60;

export function parseMinutes(value: string): number | string {
  const minutes = Number(value.trim());
  if (!value.trim() || !Number.isInteger(minutes)) return i18n.t('live:extendTimeDialog.wholeMinutes');
  if (minutes < 1 || minutes > EXTEND_MAX_MINUTES)
    return i18n.t('live:extendTimeDialog.minutesRange', { max: EXTEND_MAX_MINUTES });
  return minutes;
}

/** Adds minutes to one candidate's time (their override's extra time); their countdown follows within seconds. */
export function ExtendTimeDialog({
  examId,
  attempt,
  onClose,
}: {
  examId: string;
  attempt: LiveAttempt | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('live');
  const [value, setValue] = useState('10');
  const [error, setError] = useState<string>();
  const extend = useExtendTime(examId);
  useEffect(() => {
    if (attempt) {
      setValue('10');
      setError(undefined);
    }
  }, [attempt]);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!attempt) return;
    const minutes = parseMinutes(value);
    if (typeof minutes === 'string') return setError(minutes);
    extend.mutate(
      { studentId: attempt.studentId, minutes },
      {
        onSuccess: (total) => {
          toast.success(t('extendTimeDialog.nameHasMinutesMore', { name: attempt.name, minutes, total }));
          onClose();
        },
        onError: (failure) => setError(userMessageOf(failure)),
      },
    );
  }

  return (
    <Dialog
      open={attempt !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t('extendTimeDialog.extendTime')}
      description={
        attempt
          ? t('extendTimeDialog.moreTimeForName', { name: attempt.name, studentId: attempt.studentId })
          : undefined
      }
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <Field label={t('extendTimeDialog.minutesToAdd')} error={error}>
          <Input
            name="extendMinutes"
            type="number"
            inputMode="numeric"
            min={1}
            max={EXTEND_MAX_MINUTES}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            disabled={extend.isPending}
          />
        </Field>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t('extendTimeDialog.cancel')}
          </Button>
          <Button type="submit" disabled={extend.isPending}>
            {t('extendTimeDialog.extendTime')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
