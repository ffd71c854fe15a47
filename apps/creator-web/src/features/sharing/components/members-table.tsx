import { SHARED_ROLES, type SharedRole } from '@exam/domain/roles';
import type { ExamMembersResponse, ExamMemberView } from '@exam/domain/sharing';
import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card, CardHeader } from '@exam/ui/card';
import { ConfirmDialog } from '@exam/ui/dialog';
import { EmptyState } from '@exam/ui/empty-state';
import { Select } from '@exam/ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { toast } from '@exam/ui/toaster';
import { Trash2, Users } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckboxField } from '../../../components/checkbox-field.tsx';
import { userMessageOf } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { useRemoveMember, useUpdateMember } from '../api/manage-members.ts';

/** The owner and each member with their role; the owner changes a role or "may release" in place, or removes them. */
export function MembersTable({ examId, data }: { examId: string; data: ExamMembersResponse }) {
  const { t } = useTranslation('sharing');
  const update = useUpdateMember(examId);
  const remove = useRemoveMember(examId);
  const [toRemove, setToRemove] = useState<ExamMemberView | null>(null);
  const roleOptions = SHARED_ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }));
  const change = (member: ExamMemberView, patch: { role?: SharedRole; mayRelease?: boolean }) =>
    update.mutate(
      { creatorId: member.creatorId, ...patch },
      {
        onSuccess: () => toast.success(t('sharingPage.changed', { email: member.email })),
        onError: (error) => toast.error(userMessageOf(error)),
      },
    );

  return (
    <Card>
      <CardHeader title={t('sharingPage.peopleTitle')} />
      <Table aria-label={t('sharingPage.peopleTitle')}>
        <TableHead>
          <tr>
            <TableHeaderCell>{t('sharingPage.person')}</TableHeaderCell>
            <TableHeaderCell>{t('sharingPage.role')}</TableHeaderCell>
            <TableHeaderCell>{t('sharingPage.addedOn')}</TableHeaderCell>
            <TableHeaderCell className="text-right">{t('sharingPage.actions')}</TableHeaderCell>
          </tr>
        </TableHead>
        <TableBody>
          <TableRow>
            <TableCell className="font-medium">{t('sharingPage.you', { email: data.owner.email })}</TableCell>
            <TableCell>
              <Badge tone="brand">{t('roles.owner')}</Badge>
            </TableCell>
            <TableCell>—</TableCell>
            <TableCell />
          </TableRow>
          {data.members.map((member) => (
            <TableRow key={member.creatorId}>
              <TableCell className="break-all font-medium">{member.email}</TableCell>
              <TableCell>
                <div className="flex min-w-40 flex-col gap-2">
                  <Select
                    aria-label={t('sharingPage.roleFor', { email: member.email })}
                    value={member.role}
                    onValueChange={(role) => change(member, { role: role as SharedRole })}
                    options={roleOptions}
                    disabled={update.isPending}
                  />
                  {member.role === 'grader' && (
                    <CheckboxField
                      label={t('sharingPage.mayReleaseFor', { email: member.email })}
                      checked={member.mayRelease}
                      onChange={(mayRelease) => change(member, { mayRelease })}
                      disabled={update.isPending}
                    />
                  )}
                </div>
              </TableCell>
              <TableCell className="whitespace-nowrap">{formatDate(member.addedAt)}</TableCell>
              <TableCell className="text-right">
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={t('sharingPage.removeFor', { email: member.email })}
                  onClick={() => setToRemove(member)}
                >
                  <Trash2 aria-hidden className="h-4 w-4" /> {t('sharingPage.remove')}
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {data.members.length === 0 && <EmptyState icon={<Users aria-hidden />} title={t('sharingPage.noMembers')} />}
      <ConfirmDialog
        open={toRemove !== null}
        onOpenChange={(open) => !open && setToRemove(null)}
        title={t('sharingPage.removeTitle', { email: toRemove?.email ?? '' })}
        description={t('sharingPage.removeBody')}
        confirmLabel={t('sharingPage.remove')}
        destructive
        isPending={remove.isPending}
        onConfirm={() => {
          if (!toRemove) return;
          const { email, creatorId } = toRemove;
          remove.mutate(creatorId, {
            onSuccess: () => {
              toast.success(t('sharingPage.removed', { email }));
              setToRemove(null);
            },
            onError: (error) => toast.error(userMessageOf(error)),
          });
        }}
      />
    </Card>
  );
}
