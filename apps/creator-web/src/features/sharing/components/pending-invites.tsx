import type { ExamInviteView } from '@exam/domain/sharing';
import { Button } from '@exam/ui/button';
import { Card, CardHeader } from '@exam/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { toast } from '@exam/ui/toaster';
import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { useRemoveInvite } from '../api/manage-members.ts';

/** E-mails invited without an account yet: each gets its role when that account is made, or is cancelled here. */
export function PendingInvites({ examId, invites }: { examId: string; invites: ExamInviteView[] }) {
  const { t } = useTranslation('sharing');
  const remove = useRemoveInvite(examId);
  return (
    <Card>
      <CardHeader title={t('sharingPage.invitesTitle')} description={t('sharingPage.invitesHint')} />
      {invites.length === 0 ? (
        <p className="px-5 pb-5 text-sm text-muted">{t('sharingPage.noInvites')}</p>
      ) : (
        <Table aria-label={t('sharingPage.invitesTitle')}>
          <TableHead>
            <tr>
              <TableHeaderCell>{t('sharingPage.email')}</TableHeaderCell>
              <TableHeaderCell>{t('sharingPage.role')}</TableHeaderCell>
              <TableHeaderCell>{t('sharingPage.invitedOn')}</TableHeaderCell>
              <TableHeaderCell className="text-right">{t('sharingPage.actions')}</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {invites.map((invite) => (
              <TableRow key={invite.email}>
                <TableCell className="break-all font-medium">{invite.email}</TableCell>
                <TableCell>
                  {t(`roles.${invite.role}`)}
                  {invite.mayRelease && <span className="text-muted"> · {t('sharingPage.mayRelease')}</span>}
                </TableCell>
                <TableCell className="whitespace-nowrap">{formatDate(invite.invitedAt)}</TableCell>
                <TableCell className="text-right">
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={t('sharingPage.cancelInvite', { email: invite.email })}
                    disabled={remove.isPending}
                    onClick={() =>
                      remove.mutate(invite.email, {
                        onSuccess: () => toast.success(t('sharingPage.inviteCancelled', { email: invite.email })),
                        onError: (error) => toast.error(userMessageOf(error)),
                      })
                    }
                  >
                    <X aria-hidden className="h-4 w-4" /> {t('sharingPage.remove')}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}
