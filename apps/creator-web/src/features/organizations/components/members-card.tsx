import type { Organization, OrganizationRole } from '@exam/domain/organizations';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { toast } from '@exam/ui/toaster';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useCancelInvite, useInvite, useRemoveMember, useSetMemberRole } from '../api/manage-organization.ts';

const ROLES: OrganizationRole[] = ['admin', 'member'];
const fail = (error: unknown) => toast.error(userMessageOf(error));

/** The organization's members with their roles, and the invitations not yet accepted. */
export function MembersCard({ organization }: { organization: Organization }) {
  const { t } = useTranslation('organization');
  const setRole = useSetMemberRole();
  const remove = useRemoveMember();
  const cancel = useCancelInvite();
  const roleOptions = ROLES.map((role) => ({ value: role, label: t(`roles.${role}`) }));
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-ink">{t('members.title')}</h2>
      <Table className="mt-3">
        <TableHead>
          <TableRow>
            <TableHeaderCell>{t('members.email')}</TableHeaderCell>
            <TableHeaderCell>{t('members.role')}</TableHeaderCell>
            <TableHeaderCell>{t('members.signIn')}</TableHeaderCell>
            <TableHeaderCell>
              <span className="sr-only">{t('members.actions')}</span>
            </TableHeaderCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {organization.members.map((member) => (
            <TableRow key={member.userId}>
              <TableCell className="break-all">{member.email}</TableCell>
              <TableCell>
                <Select
                  aria-label={t('members.roleOf', { email: member.email })}
                  value={member.role}
                  options={roleOptions}
                  disabled={setRole.isPending}
                  onValueChange={(role) =>
                    setRole.mutate({ userId: member.userId, role: role as OrganizationRole }, { onError: fail })
                  }
                />
              </TableCell>
              <TableCell>{member.hasPassword ? t('members.password') : t('members.ssoOnly')}</TableCell>
              <TableCell>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={remove.isPending}
                  aria-label={t('members.removeNamed', { email: member.email })}
                  onClick={() => remove.mutate(member.userId, { onError: fail })}
                >
                  {t('members.remove')}
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <h3 className="mt-6 text-base font-semibold text-ink">{t('invites.title')}</h3>
      {organization.invites.length === 0 ? (
        <p className="mt-2 text-sm text-muted">{t('invites.none')}</p>
      ) : (
        <ul className="mt-2 flex flex-col gap-2" aria-label={t('invites.title')}>
          {organization.invites.map((invite) => (
            <li key={invite.email} className="flex items-center justify-between gap-4 text-sm">
              <span className="break-all text-ink">
                {invite.email} · {t(`roles.${invite.role}`)}
              </span>
              <Button
                variant="secondary"
                size="sm"
                disabled={cancel.isPending}
                aria-label={t('invites.cancelNamed', { email: invite.email })}
                onClick={() => cancel.mutate(invite.email, { onError: fail })}
              >
                {t('invites.cancel')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <InviteForm roleOptions={roleOptions} />
    </Card>
  );
}

function InviteForm({ roleOptions }: { roleOptions: { value: string; label: string }[] }) {
  const { t } = useTranslation('organization');
  const invite = useInvite();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<OrganizationRole>('member');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate(
      { email, role },
      {
        onSuccess: () => {
          setEmail('');
          toast.success(t('invites.sent'));
        },
      },
    );
  };
  return (
    <form className="mt-4 flex flex-wrap items-end gap-3" onSubmit={submit} noValidate>
      <Field
        label={t('invites.email')}
        className="min-w-64 flex-1"
        error={invite.error ? userMessageOf(invite.error) : undefined}
      >
        <Input type="email" value={email} onChange={(event) => setEmail(event.target.value)} required />
      </Field>
      <Field label={t('invites.role')} className="w-40">
        <Select value={role} options={roleOptions} onValueChange={(value) => setRole(value as OrganizationRole)} />
      </Field>
      <Button type="submit" disabled={invite.isPending}>
        {t('invites.send')}
      </Button>
    </form>
  );
}
