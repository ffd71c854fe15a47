import type { Exam } from '@exam/domain/exam';
import { ConfirmDialog } from '@exam/ui/dialog';
import { toast } from '@exam/ui/toaster';
import { useDeleteExam } from '../api/manage-exams.ts';
import { examName } from '../../../lib/display-names.ts';
import { useTranslation } from 'react-i18next';

/** One confirmation wording for drafts and published exams: deleting either cannot be undone. */
export function DeleteExamDialog({ exam, onClose }: { exam: Exam | null; onClose: () => void }) {
  const { t } = useTranslation('exams');
  const deleteExam = useDeleteExam();
  return (
    <ConfirmDialog
      open={exam !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t('deleteExamDialog.deleteExam')}
      description={exam ? t('deleteExamDialog.areYouSureYou', { examName: examName(exam.title) }) : ''}
      confirmLabel={t('deleteExamDialog.delete')}
      destructive
      isPending={deleteExam.isPending}
      onConfirm={() => {
        if (!exam) return;
        deleteExam.mutate(exam.id, {
          onSuccess: () =>
            toast.success(
              exam.isDraft
                ? t('deleteExamDialog.draftExamDeletedSuccessfully')
                : t('deleteExamDialog.publishedExamDeletedSuccessfully'),
            ),
          onError: () => toast.error(t('deleteExamDialog.error')),
          onSettled: onClose,
        });
      }}
    />
  );
}
