import type { Exam } from '@exam/domain/exam';
import { DropdownMenuItem, DropdownMenuSeparator } from '@exam/ui/dropdown-menu';
import { Download, FileCode, Trash2, UserCog } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { examCan } from '../lib/capabilities.ts';
import { exportMoodleXmlWithToast, exportQtiWithToast } from './export-qti.ts';

/**
 * The end of every exam row's "More actions" menu, drafts and published alike: accommodations, the two exports and
 * deletion, each only where the creator's role on the exam allows it (the services refuse the rest anyway).
 */
export function ExamMenuTail({
  exam,
  accommodationsLabel,
  deleteLabel,
  onDelete,
}: {
  exam: Exam;
  accommodationsLabel: string;
  deleteLabel: string;
  onDelete: (exam: Exam) => void;
}) {
  const { t } = useTranslation('exams');
  const canEdit = examCan(exam, 'exam:edit');
  const canDelete = examCan(exam, 'exam:delete');
  return (
    <>
      {examCan(exam, 'live:control') && (
        <DropdownMenuItem asChild>
          <Link to={paths.examAccommodations(exam.id)}>
            <UserCog aria-hidden className="h-4 w-4" /> {accommodationsLabel}
          </Link>
        </DropdownMenuItem>
      )}
      {canEdit && (
        <DropdownMenuItem onSelect={() => void exportQtiWithToast(exam.id)}>
          <Download aria-hidden className="h-4 w-4" /> {t('interchange.exportQti')}
        </DropdownMenuItem>
      )}
      {canEdit && (
        <DropdownMenuItem onSelect={() => void exportMoodleXmlWithToast(exam.id)}>
          <FileCode aria-hidden className="h-4 w-4" /> {t('interchange.exportMoodleXml')}
        </DropdownMenuItem>
      )}
      {canDelete && <DropdownMenuSeparator />}
      {canDelete && (
        <DropdownMenuItem className="text-danger data-[highlighted]:bg-red-50" onSelect={() => onDelete(exam)}>
          <Trash2 aria-hidden className="h-4 w-4" /> {deleteLabel}
        </DropdownMenuItem>
      )}
    </>
  );
}
