import type { Exam } from '@exam/domain/exam';
import { Card, CardHeader } from '@exam/ui/card';
import { DropdownMenuItem } from '@exam/ui/dropdown-menu';
import { EmptyState } from '@exam/ui/empty-state';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { ExternalLink, FileText, FileUp, Pencil } from 'lucide-react';
import { useState } from 'react';
import { paths } from '../../../config/paths.ts';
import { useRuntimeConfig } from '../../../config/runtime-config.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { openPreview } from '../lib/open-preview.ts';
import { DeleteExamDialog } from './delete-exam-dialog.tsx';
import { ImportQuestionsDialog } from './import-questions-dialog.tsx';
import { MoreActionsMenu, RowActionButton, RowActionLink, RowActions } from './row-actions.tsx';
import { examName } from '../../../lib/display-names.ts';
import { RoleBadge } from './role-badge.tsx';
import { examCan } from '../lib/capabilities.ts';
import { ExamMenuTail } from './exam-menu-tail.tsx';
import { useTranslation } from 'react-i18next';

export function DraftExamsTable({ exams }: { exams: Exam[] }) {
  const { t } = useTranslation('exams');
  const { takerOrigin } = useRuntimeConfig();
  const [toDelete, setToDelete] = useState<Exam | null>(null);
  const [importInto, setImportInto] = useState<string | null>(null);
  const headers = {
    questions: t('draftExamsTable.questions'),
    created: t('draftExamsTable.created'),
    lastModified: t('draftExamsTable.lastModified'),
  };
  return (
    <Card>
      <CardHeader title={t('draftExamsTable.draftExams')} description={t('draftExamsTable.workInProgressCandidates')} />
      {exams.length === 0 ? (
        <EmptyState icon={<FileText aria-hidden />} title={t('draftExamsTable.noDraftExamsYet')} />
      ) : (
        <Table stacked aria-label={t('draftExamsTable.draftExams')}>
          <TableHead>
            <tr>
              {[t('draftExamsTable.title'), ...Object.values(headers)].map((h) => (
                <TableHeaderCell key={h}>{h}</TableHeaderCell>
              ))}
              <TableHeaderCell className="text-right">{t('draftExamsTable.actions')}</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {exams.map((exam) => {
              const titleId = `draft-title-${exam.id}`;
              const canEdit = examCan(exam, 'exam:edit');
              const canControl = examCan(exam, 'live:control');
              const canDelete = examCan(exam, 'exam:delete');
              return (
                <TableRow key={exam.id}>
                  <TableCell id={titleId} className="min-w-28 max-w-72 break-words font-medium">
                    {examName(exam.title)} <RoleBadge exam={exam} />
                  </TableCell>
                  <TableCell data-label={headers.questions} className="tabular-nums">
                    {exam.questions.length}
                  </TableCell>
                  <TableCell data-label={headers.created} className="whitespace-nowrap">
                    {formatDate(exam.createdAt)}
                  </TableCell>
                  <TableCell data-label={headers.lastModified} className="whitespace-nowrap">
                    {formatDate(exam.lastEditedAt)}
                  </TableCell>
                  <TableCell>
                    <RowActions columns="2-3">
                      {canEdit && (
                        <RowActionLink
                          to={paths.editExam(exam.id, 'draft')}
                          icon={<Pencil aria-hidden />}
                          describedBy={titleId}
                        >
                          {t('draftExamsTable.edit')}
                        </RowActionLink>
                      )}
                      {canEdit && (
                        <RowActionButton
                          onClick={() => void openPreview(exam.id, takerOrigin)}
                          icon={<ExternalLink aria-hidden />}
                          describedBy={titleId}
                        >
                          {t('draftExamsTable.preview')}
                        </RowActionButton>
                      )}
                      {(canEdit || canControl || canDelete) && (
                        <MoreActionsMenu label={t('draftExamsTable.moreActions')} describedBy={titleId}>
                          {canEdit && (
                            <DropdownMenuItem onSelect={() => setImportInto(exam.id)}>
                              <FileUp aria-hidden className="h-4 w-4" /> {t('interchange.importIntoDraft')}
                            </DropdownMenuItem>
                          )}
                          <ExamMenuTail
                            exam={exam}
                            accommodationsLabel={t('draftExamsTable.accommodations')}
                            deleteLabel={t('draftExamsTable.delete')}
                            onDelete={setToDelete}
                          />
                        </MoreActionsMenu>
                      )}
                    </RowActions>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
      <DeleteExamDialog exam={toDelete} onClose={() => setToDelete(null)} />
      <ImportQuestionsDialog
        open={importInto !== null}
        examId={importInto ?? undefined}
        onClose={() => setImportInto(null)}
      />
    </Card>
  );
}
