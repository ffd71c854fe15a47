import type { Exam } from '@exam/domain/exam';
import { Card, CardHeader } from '@exam/ui/card';
import { DropdownMenuItem } from '@exam/ui/dropdown-menu';
import { EmptyState } from '@exam/ui/empty-state';
import { Switch } from '@exam/ui/switch';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { toast } from '@exam/ui/toaster';
import { BarChart3, ExternalLink, Link2, Pencil, Radio, Send, Users } from 'lucide-react';
import { Link } from 'react-router';
import { useState } from 'react';
import { paths, takerPaths } from '../../../config/paths.ts';
import { useRuntimeConfig } from '../../../config/runtime-config.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { copyText } from '../../../lib/copy-text.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { useSetExamLive } from '../api/manage-exams.ts';
import type { ExamResultsSummary } from '../api/get-results-summary.ts';
import { openPreview } from '../lib/open-preview.ts';
import { DeleteExamDialog } from './delete-exam-dialog.tsx';
import { MoreActionsMenu, RowActionButton, RowActionLink, RowActions } from './row-actions.tsx';
import { TakeOfflineDialog } from './take-offline-dialog.tsx';
import { examName } from '../../../lib/display-names.ts';
import { RoleBadge } from './role-badge.tsx';
import { examCan } from '../lib/capabilities.ts';
import { ExamMenuTail } from './exam-menu-tail.tsx';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../i18n/index.ts';

export async function copyExamUrl(url: string): Promise<void> {
  if (await copyText(url)) toast.success(i18n.t('exams:publishedExamsTable.urlCopied'));
  else toast.error(i18n.t('exams:publishedExamsTable.copyFailed'));
}

function LiveSwitch({ exam }: { exam: Exam }) {
  const { t } = useTranslation('exams');
  const setLive = useSetExamLive();
  const [confirmOffline, setConfirmOffline] = useState(false);
  const id = `live-${exam.id}`;
  const apply = (isLive: boolean) =>
    setLive.mutate(
      { examId: exam.id, isLive },
      {
        onSettled: () => setConfirmOffline(false),
        onSuccess: () =>
          toast.success(isLive ? t('publishedExamsTable.examIsNowLive') : t('publishedExamsTable.examIsNowOffline')),
        onError: (error) => toast.error(userMessageOf(error)),
      },
    );
  if (!examCan(exam, 'exam:edit'))
    return (
      <span className={exam.isLive ? 'text-sm font-medium text-success' : 'text-sm text-muted'}>
        {exam.isLive ? t('publishedExamsTable.live') : t('publishedExamsTable.offline')}
      </span>
    );
  return (
    <div className="flex items-center gap-2">
      <Switch
        id={id}
        checked={exam.isLive}
        // Going live is one click; going offline asks first (take-offline-dialog.tsx).
        onCheckedChange={(isLive) => (isLive ? apply(true) : setConfirmOffline(true))}
      />
      <label htmlFor={id} className={exam.isLive ? 'text-sm font-medium text-success' : 'text-sm text-muted'}>
        {exam.isLive ? t('publishedExamsTable.live') : t('publishedExamsTable.offline')}
      </label>
      <TakeOfflineDialog
        examId={exam.id}
        open={confirmOffline}
        onOpenChange={setConfirmOffline}
        onConfirm={() => apply(false)}
        isPending={setLive.isPending}
      />
    </div>
  );
}

type Props = {
  exams: Exam[];
  summary: ExamResultsSummary[] | undefined;
  /** Invitations sent per exam (roster entries invited); undefined while unknown. */
  invitations: Map<string, number> | undefined;
};

export function PublishedExamsTable({ exams, summary, invitations }: Props) {
  const { t } = useTranslation('exams');
  const { takerOrigin } = useRuntimeConfig();
  const [toDelete, setToDelete] = useState<Exam | null>(null);
  const countsOf = (examId: string) => summary?.find((s) => s.examId === examId);
  // Without the results service the counts are unknown, not zero.
  const count = (value: number | undefined) => (summary ? (value ?? 0) : '—');
  const headers = {
    status: t('publishedExamsTable.status'),
    questions: t('publishedExamsTable.questions'),
    published: t('publishedExamsTable.published'),
    lastEdit: t('publishedExamsTable.lastEdit'),
    invites: t('publishedExamsTable.invites'),
    submissions: t('publishedExamsTable.submissions'),
  };

  return (
    <Card>
      <CardHeader
        title={t('publishedExamsTable.publishedExams')}
        description={t('publishedExamsTable.examsCandidatesCanOpen')}
      />
      {exams.length === 0 ? (
        <EmptyState icon={<Send aria-hidden />} title={t('publishedExamsTable.noPublishedExamsYet')} />
      ) : (
        <Table stacked aria-label={t('publishedExamsTable.publishedExams')}>
          <TableHead>
            <tr>
              {[t('publishedExamsTable.title'), ...Object.values(headers)].map((h) => (
                <TableHeaderCell key={h}>{h}</TableHeaderCell>
              ))}
              <TableHeaderCell className="text-right">{t('publishedExamsTable.actions')}</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {exams.map((exam) => {
              const titleId = `published-title-${exam.id}`;
              const canEdit = examCan(exam, 'exam:edit');
              const canControl = examCan(exam, 'live:control');
              const canDelete = examCan(exam, 'exam:delete');
              // Results open on the insights for those who read them, else on the submissions (a grader).
              const results = examCan(exam, 'insights:read')
                ? paths.examInsights(exam.id)
                : examCan(exam, 'results:read')
                  ? paths.examSubmissions(exam.id)
                  : null;
              return (
                <TableRow key={exam.id}>
                  <TableCell id={titleId} className="min-w-28 max-w-64 break-words font-medium">
                    {examName(exam.title)} <RoleBadge exam={exam} />
                  </TableCell>
                  <TableCell data-label={headers.status}>
                    <LiveSwitch exam={exam} />
                  </TableCell>
                  <TableCell data-label={headers.questions} className="tabular-nums">
                    {exam.questions.length}
                  </TableCell>
                  <TableCell data-label={headers.published} className="min-w-20">
                    {formatDate(exam.publishedAt)}
                  </TableCell>
                  <TableCell data-label={headers.lastEdit} className="min-w-20">
                    {formatDate(exam.lastEditedAt)}
                  </TableCell>
                  <TableCell data-label={headers.invites} className="tabular-nums">
                    {invitations ? (invitations.get(exam.id) ?? 0) : '—'}
                  </TableCell>
                  <TableCell data-label={headers.submissions} className="tabular-nums">
                    {count(countsOf(exam.id)?.submitted)}
                  </TableCell>
                  <TableCell>
                    <RowActions columns="1-2">
                      {canEdit && (
                        <RowActionLink
                          to={paths.editExam(exam.id, 'published')}
                          icon={<Pencil aria-hidden />}
                          describedBy={titleId}
                        >
                          {t('publishedExamsTable.edit')}
                        </RowActionLink>
                      )}
                      {results && (
                        <RowActionLink to={results} icon={<BarChart3 aria-hidden />} describedBy={titleId}>
                          {t('publishedExamsTable.results')}
                        </RowActionLink>
                      )}
                      <RowActionButton
                        onClick={() => void copyExamUrl(takerPaths.exam(takerOrigin, exam.id))}
                        icon={<Link2 aria-hidden />}
                        describedBy={titleId}
                      >
                        {t('publishedExamsTable.copyLink')}
                      </RowActionButton>
                      {(examCan(exam, 'live:view') || canEdit || canControl || canDelete) && (
                        <MoreActionsMenu label={t('publishedExamsTable.moreActions')} describedBy={titleId}>
                          {examCan(exam, 'live:view') && (
                            <DropdownMenuItem asChild>
                              <Link to={paths.examLive(exam.id)}>
                                <Radio aria-hidden className="h-4 w-4" /> {t('publishedExamsTable.liveView')}
                              </Link>
                            </DropdownMenuItem>
                          )}
                          {canEdit && (
                            <DropdownMenuItem onSelect={() => void openPreview(exam.id, takerOrigin)}>
                              <ExternalLink aria-hidden className="h-4 w-4" /> {t('publishedExamsTable.preview')}
                            </DropdownMenuItem>
                          )}
                          {canEdit && (
                            <DropdownMenuItem asChild>
                              <Link to={paths.examRoster(exam.id)}>
                                <Users aria-hidden className="h-4 w-4" /> {t('publishedExamsTable.rosterInvitations')}
                              </Link>
                            </DropdownMenuItem>
                          )}
                          <ExamMenuTail
                            exam={exam}
                            accommodationsLabel={t('publishedExamsTable.accommodations')}
                            deleteLabel={t('publishedExamsTable.delete')}
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
    </Card>
  );
}
