import type { Exam } from '@exam/domain/exam';
import { ConfirmDialog } from '@exam/ui/dialog';
import { toast } from '@exam/ui/toaster';
import { useDeleteExam } from '../api/exam-mutations.ts';
import { examName } from '../../../lib/display-names.ts';

/** One confirmation wording for drafts and published exams: deleting either cannot be undone. */
export function DeleteExamDialog({ exam, onClose }: { exam: Exam | null; onClose: () => void }) {
  const deleteExam = useDeleteExam();
  return (
    <ConfirmDialog
      open={exam !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Delete exam?"
      description={
        exam ? `Are you sure you want to delete the draft "${examName(exam.title)}"? This action cannot be undone.` : ''
      }
      confirmLabel="Delete"
      destructive
      isPending={deleteExam.isPending}
      onConfirm={() => {
        if (!exam) return;
        deleteExam.mutate(exam.id, {
          onSuccess: () =>
            toast.success(exam.isDraft ? 'Draft exam deleted successfully' : 'Published exam deleted successfully'),
          onError: () => toast.error('Error'),
          onSettled: onClose,
        });
      }}
    />
  );
}
