import type { Issue } from '@exam/domain/errors';
import { SHARED_ROLES, type SharedRole } from '@exam/domain/roles';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { toast } from '@exam/ui/toaster';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckboxField } from '../../../components/checkbox-field.tsx';
import { ApiError, userMessageOf } from '../../../lib/api-client.ts';
import { useAddMember } from '../api/manage-members.ts';

/** Adds a person by e-mail in a role; the server's 400 marks the field (an unknown role, the owner's own e-mail). */
export function AddMemberForm({ examId }: { examId: string }) {
  const { t } = useTranslation('sharing');
  const add = useAddMember(examId);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<SharedRole>('grader');
  const [mayRelease, setMayRelease] = useState(false);
  const [issues, setIssues] = useState<Issue[]>([]);
  const errorOf = (field: string) => issues.find((i) => i.path === field)?.message;
  const roleOptions = SHARED_ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }));

  return (
    <Card>
      <CardHeader title={t('sharingPage.addTitle')} description={t(`roleHints.${role}`)} />
      <CardBody>
        <form
          noValidate
          className="grid items-start gap-3 md:grid-cols-[2fr_1fr_auto]"
          onSubmit={(e) => {
            e.preventDefault();
            setIssues([]);
            add.mutate(
              { email, role, mayRelease: role === 'grader' && mayRelease },
              {
                onSuccess: (added) => {
                  toast.success(
                    added.kind === 'member'
                      ? t('sharingPage.sharedWith', { email: added.member.email })
                      : t('sharingPage.invited', { email: added.invite.email }),
                  );
                  setEmail('');
                  setMayRelease(false);
                },
                onError: (error) => {
                  const listed = error instanceof ApiError ? error.issues : [];
                  setIssues(listed.length ? listed : [{ path: 'email', message: userMessageOf(error) }]);
                },
              },
            );
          }}
        >
          <Field label={t('sharingPage.email')} hint={t('sharingPage.emailHint')} error={errorOf('email')}>
            <Input type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
          </Field>
          <div className="flex flex-col gap-2">
            <Field label={t('sharingPage.role')} error={errorOf('role')}>
              <Select value={role} onValueChange={(v) => setRole(v as SharedRole)} options={roleOptions} />
            </Field>
            {role === 'grader' && (
              <CheckboxField label={t('sharingPage.mayRelease')} checked={mayRelease} onChange={setMayRelease} />
            )}
          </div>
          <Button type="submit" className="md:mt-6" disabled={add.isPending}>
            {add.isPending ? t('sharingPage.sharing') : t('sharingPage.share')}
          </Button>
        </form>
      </CardBody>
    </Card>
  );
}
