import { ApiError } from '@exam/domain/api-error';
import { LtiPlatformInputSchema, type LtiPlatformInput } from '@exam/domain/lti';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { toast } from '@exam/ui/toaster';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useCreatePlatform } from '../api/manage-lti.ts';

const TEXT_FIELDS = ['name', 'issuer', 'clientId', 'authLoginUrl', 'authTokenUrl', 'jwksUrl'] as const;
type TextField = (typeof TEXT_FIELDS)[number];
type Errors = Partial<Record<TextField | 'deploymentIds', string>>;
const LABELS = {
  name: 'settings.name',
  issuer: 'settings.issuer',
  clientId: 'settings.clientId',
  authLoginUrl: 'settings.authLoginUrl',
  authTokenUrl: 'settings.authTokenUrl',
  jwksUrl: 'settings.jwksUrlPlatform',
} as const;

const empty = { name: '', issuer: '', clientId: '', authLoginUrl: '', authTokenUrl: '', jwksUrl: '' };

/** Registers a platform: checked with the schema the service uses, the service's field issues shown in place. */
export function PlatformForm() {
  const { t } = useTranslation('lti');
  const create = useCreatePlatform();
  const [values, setValues] = useState<Record<TextField, string>>(empty);
  const [deployments, setDeployments] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [general, setGeneral] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: LtiPlatformInput = {
      ...values,
      deploymentIds: deployments
        .split(/[\n,]/)
        .map((id) => id.trim())
        .filter(Boolean),
    };
    const parsed = LtiPlatformInputSchema.safeParse(body);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0]) as keyof Errors] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    setGeneral(undefined);
    create.mutate(body, {
      onSuccess: () => {
        setValues(empty);
        setDeployments('');
        toast.success(t('settings.registered'));
      },
      onError: (error) => {
        const placed: Errors = {};
        if (error instanceof ApiError)
          for (const issue of error.issues) placed[issue.path as keyof Errors] ??= issue.message;
        if (Object.keys(placed).length) setErrors(placed);
        else setGeneral(userMessageOf(error));
      },
    });
  };

  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-ink">{t('settings.addTitle')}</h2>
      <p className="mt-1 text-sm text-muted">{t('settings.addIntro')}</p>
      <form className="mt-4 grid gap-4 md:grid-cols-2" onSubmit={submit} noValidate>
        {general && (
          <p role="alert" className="text-sm text-danger md:col-span-2">
            {general}
          </p>
        )}
        {TEXT_FIELDS.map((name) => (
          <Field key={name} label={t(LABELS[name])} error={errors[name]}>
            <Input
              name={name}
              value={values[name]}
              onChange={(e) => setValues({ ...values, [name]: e.target.value })}
              disabled={create.isPending}
            />
          </Field>
        ))}
        <Field label={t('settings.deploymentIds')} hint={t('settings.deploymentIdsHint')} error={errors.deploymentIds}>
          <textarea
            name="deploymentIds"
            className="min-h-20 rounded-md border border-line bg-surface px-3 py-2 text-sm"
            value={deployments}
            onChange={(e) => setDeployments(e.target.value)}
            disabled={create.isPending}
          />
        </Field>
        <div className="md:col-span-2">
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? t('settings.registering') : t('settings.register')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
