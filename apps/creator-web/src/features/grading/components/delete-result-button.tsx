import type { Exam } from '@exam/domain/exam';
import type { ResultDetail } from '@exam/domain/result';
import { Button } from '@exam/ui/button';
import { ConfirmDialog } from '@exam/ui/dialog';
import { toast } from '@exam/ui/toaster';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useDeleteResult } from '../api/delete-result.ts';

/**
 * "Delete result" for the roles that may (owners and editors: 'results:delete' among the exam's capabilities); the
 * service refuses everyone else. Confirmed first: the attempt, its answers, files and grade history go for good.
 */
export function DeleteResultButton({ detail, exam }: { detail: ResultDetail; exam: Exam | undefined }) {
  const { t } = useTranslation('grading');
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const remove = useDeleteResult(detail.id);
  // An exam served without capabilities comes from a server that predates roles: only its owner reads it.
  if (!exam || (exam.capabilities && !exam.capabilities.includes('results:delete'))) return null;
  const name = detail.userName.trim() || detail.studentId;
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <Trash2 aria-hidden className="h-4 w-4" /> {t('deleteResult.delete')}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t('deleteResult.title')}
        description={t('deleteResult.description', { name })}
        confirmLabel={t('deleteResult.confirm')}
        destructive
        isPending={remove.isPending}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              toast.success(t('deleteResult.deleted'));
              setOpen(false);
              void navigate(paths.examSubmissions(detail.examId));
            },
            onError: (error) => toast.error(userMessageOf(error)),
          })
        }
      />
    </>
  );
}
