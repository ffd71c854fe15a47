import type { Exam } from '@exam/domain/exam';
import { Card, CardHeader } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { FileText, Pencil, Trash2, UserCog } from 'lucide-react';
import { useState } from 'react';
import { paths } from '../../../config/paths.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { DeleteExamDialog } from './delete-exam-dialog.tsx';
import { IconAction } from './icon-action.tsx';
import { examName } from '../../../lib/display-names.ts';

export function DraftExamsTable({ exams }: { exams: Exam[] }) {
  const [toDelete, setToDelete] = useState<Exam | null>(null);
  return (
    <Card>
      <CardHeader title="Draft Exams" description="Work in progress; candidates cannot see drafts." />
      {exams.length === 0 ? (
        <EmptyState icon={<FileText aria-hidden />} title="No draft exams yet" />
      ) : (
        <Table aria-label="Draft Exams">
          <TableHead>
            <tr>
              {['Title', 'Questions', 'Created', 'Last Modified'].map((h) => (
                <TableHeaderCell key={h}>{h}</TableHeaderCell>
              ))}
              <TableHeaderCell className="text-right">Actions</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {exams.map((exam) => (
              <TableRow key={exam.id}>
                <TableCell className="max-w-72 truncate font-medium">{examName(exam.title)}</TableCell>
                <TableCell className="tabular-nums">{exam.questions.length}</TableCell>
                <TableCell className="whitespace-nowrap">{formatDate(exam.createdAt)}</TableCell>
                <TableCell className="whitespace-nowrap">{formatDate(exam.lastEditedAt)}</TableCell>
                <TableCell>
                  <div className="flex justify-end gap-0.5">
                    <IconAction
                      label="Edit"
                      icon={<Pencil aria-hidden className="h-4 w-4" />}
                      to={paths.editExam(exam.id, 'draft')}
                    />
                    <IconAction
                      label="Accommodations"
                      icon={<UserCog aria-hidden className="h-4 w-4" />}
                      to={paths.examAccommodations(exam.id)}
                    />
                    <IconAction
                      label="Delete"
                      tone="danger"
                      icon={<Trash2 aria-hidden className="h-4 w-4" />}
                      onClick={() => setToDelete(exam)}
                    />
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <DeleteExamDialog exam={toDelete} onClose={() => setToDelete(null)} />
    </Card>
  );
}
