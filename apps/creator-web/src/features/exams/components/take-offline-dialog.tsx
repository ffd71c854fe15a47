import { ConfirmDialog } from '@exam/ui/dialog';
import { useTranslation } from 'react-i18next';
import { useSittingCount } from '../api/get-sitting-count.ts';

type Props = {
  examId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  isPending?: boolean;
};

/**
 * Taking a live exam offline asks first, with how many candidates are sitting it now and what happens to them:
 * offline stops new starts and resumes (results-service refuses them), while an open page keeps saving and can
 * still submit (docs/product.md, Lifecycle).
 */
export function TakeOfflineDialog({ examId, open, onOpenChange, onConfirm, isPending }: Props) {
  const { t } = useTranslation('exams');
  const sitting = useSittingCount(examId, open);
  const count = sitting.isPending
    ? t('takeOffline.counting')
    : sitting.isError
      ? t('takeOffline.unknown')
      : sitting.data === 0
        ? t('takeOffline.nobodySitting')
        : t('takeOffline.sitting', { count: sitting.data });
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('takeOffline.title')}
      description={count}
      confirmLabel={t('takeOffline.confirm')}
      destructive
      isPending={isPending || sitting.isPending}
      onConfirm={onConfirm}
    >
      <p className="text-sm text-muted">{t('takeOffline.whatHappens')}</p>
    </ConfirmDialog>
  );
}
