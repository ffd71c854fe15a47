import type { Organization } from '@exam/domain/organizations';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { SwitchField } from '@exam/ui/switch';
import { toast } from '@exam/ui/toaster';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useUpdateOrganization } from '../api/manage-organization.ts';

/** The organization's name and whether its members may sign in with a password. */
export function SignInCard({ organization }: { organization: Organization }) {
  const { t } = useTranslation('organization');
  const update = useUpdateOrganization();
  const [name, setName] = useState(organization.name);
  const [problem, setProblem] = useState<string>();
  const rename = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ name }, { onSuccess: () => toast.success(t('general.saved')) });
  };
  return (
    <Card className="flex flex-col gap-4 p-6">
      <h2 className="text-lg font-semibold text-ink">{t('general.title')}</h2>
      <form className="flex flex-wrap items-end gap-3" onSubmit={rename} noValidate>
        <Field label={t('general.name')} className="min-w-64 flex-1">
          <Input value={name} onChange={(event) => setName(event.target.value)} required />
        </Field>
        <Button type="submit" disabled={update.isPending}>
          {t('general.save')}
        </Button>
      </form>
      <SwitchField
        label={t('general.passwordSignIn')}
        hint={t('general.passwordSignInHint')}
        checked={organization.passwordSignIn}
        disabled={update.isPending}
        onCheckedChange={(passwordSignIn) => {
          setProblem(undefined);
          update.mutate({ passwordSignIn }, { onError: (error) => setProblem(userMessageOf(error)) });
        }}
      />
      {problem && (
        <p role="alert" className="text-sm text-danger">
          {problem}
        </p>
      )}
    </Card>
  );
}
