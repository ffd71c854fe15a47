import type { Exam } from '@exam/domain/exam';
import { Card, CardHeader } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { Download, FileCode, FileText, FileUp, Pencil, Trash2, UserCog } from 'lucide-react';
import { useState } from 'react';
import { paths } from '../../../config/paths.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { DeleteExamDialog } from './delete-exam-dialog.tsx';
import { exportMoodleXmlWithToast, exportQtiWithToast } from './export-qti.ts';
import { ImportQuestionsDialog } from './import-questions-dialog.tsx';
import { IconAction } from './icon-action.tsx';
import { RoleBadge } from './role-badge.tsx';
import { examCan } from '../lib/capabilities.ts';
import { examName } from '../../../lib/display-names.ts';
import { useTranslation } from 'react-i18next';

export function DraftExamsTable({ exams }: { exams: Exam[] }) {
  const { t } = useTranslation('exams');
  const [toDelete, setToDelete] = useState<Exam | null>(null);
  const [importInto, setImportInto] = useState<string | null>(null);
  return (
    <Card>
      <CardHeader title={t('draftExamsTable.draftExams')} description={t('draftExamsTable.workInProgressCandidates')} />
      {exams.length === 0 ? (
        <EmptyState icon={<FileText aria-hidden />} title={t('draftExamsTable.noDraftExamsYet')} />
      ) : (
        <Table aria-label={t('draftExamsTable.draftExams')}>
          <TableHead>
            <tr>
              {[
                t('draftExamsTable.title'),
                t('draftExamsTable.questions'),
                t('draftExamsTable.created'),
                t('draftExamsTable.lastModified'),
              ].map((h) => (
                <TableHeaderCell key={h}>{h}</TableHeaderCell>
              ))}
              <TableHeaderCell className="text-right">{t('draftExamsTable.actions')}</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {exams.map((exam) => (
              <TableRow key={exam.id}>
                <TableCell className="max-w-72 truncate font-medium">
                  {examName(exam.title)} <RoleBadge exam={exam} />
                </TableCell>
                <TableCell className="tabular-nums">{exam.questions.length}</TableCell>
                <TableCell className="whitespace-nowrap">{formatDate(exam.createdAt)}</TableCell>
                <TableCell className="whitespace-nowrap">{formatDate(exam.lastEditedAt)}</TableCell>
                <TableCell>
                  <div className="flex justify-end gap-0.5">
                    {examCan(exam, 'exam:edit') && (
                      <>
                        <IconAction
                          label={t('draftExamsTable.edit')}
                          icon={<Pencil aria-hidden className="h-4 w-4" />}
                          to={paths.editExam(exam.id, 'draft')}
                        />
                        <IconAction
                          label={t('draftExamsTable.accommodations')}
                          icon={<UserCog aria-hidden className="h-4 w-4" />}
                          to={paths.examAccommodations(exam.id)}
                        />
                        <IconAction
                          label={t('interchange.importIntoDraft')}
                          icon={<FileUp aria-hidden className="h-4 w-4" />}
                          onClick={() => setImportInto(exam.id)}
                        />
                        <IconAction
                          label={t('interchange.exportQti')}
                          icon={<Download aria-hidden className="h-4 w-4" />}
                          onClick={() => void exportQtiWithToast(exam.id)}
                        />
                        <IconAction
                          label={t('interchange.exportMoodleXml')}
                          icon={<FileCode aria-hidden className="h-4 w-4" />}
                          onClick={() => void exportMoodleXmlWithToast(exam.id)}
                        />
                      </>
                    )}
                    {examCan(exam, 'exam:delete') && (
                      <IconAction
                        label={t('draftExamsTable.delete')}
                        tone="danger"
                        icon={<Trash2 aria-hidden className="h-4 w-4" />}
                        onClick={() => setToDelete(exam)}
                      />
                    )}
                  </div>
                </TableCell>
              </TableRow>
            ))}
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
