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
import { useDiscoverIssuer, useSaveSso } from '../api/manage-organization.ts';

/** The organization's OpenID Connect provider: issuer, client, the e-mail domains it signs in, on or off. */
export function SsoCard({ organization }: { organization: Organization }) {
  const { t } = useTranslation('organization');
  const sso = organization.sso;
  const save = useSaveSso();
  const discover = useDiscoverIssuer();
  const [issuer, setIssuer] = useState(sso?.issuer ?? '');
  const [clientId, setClientId] = useState(sso?.clientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [domains, setDomains] = useState(sso?.emailDomains.join(', ') ?? '');
  const [enabled, setEnabled] = useState(sso?.enabled ?? true);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      {
        issuer,
        clientId,
        // Empty keeps the stored secret (the form never shows it).
        ...(clientSecret ? { clientSecret } : {}),
        emailDomains: domains
          .split(/[\s,]+/)
          .map((d) => d.trim())
          .filter(Boolean),
        enabled,
      },
      {
        onSuccess: () => {
          setClientSecret('');
          toast.success(t('sso.saved'));
        },
      },
    );
  };

  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-ink">{t('sso.title')}</h2>
      <p className="mt-1 text-sm text-muted">{t('sso.intro')}</p>
      <p className="mt-2 text-sm text-ink">
        {t('sso.redirectUri')} <code className="break-all rounded bg-canvas px-1">{organization.redirectUri}</code>
      </p>
      <form className="mt-4 flex flex-col gap-4" onSubmit={submit} noValidate aria-label={t('sso.title')}>
        {save.isError && (
          <p role="alert" className="text-sm text-danger">
            {userMessageOf(save.error)}
          </p>
        )}
        <Field label={t('sso.issuer')} hint={t('sso.issuerHint')}>
          <Input type="url" value={issuer} onChange={(event) => setIssuer(event.target.value)} required />
        </Field>
        <div className="flex flex-wrap items-center gap-3">
          <Button
            type="button"
            variant="secondary"
            disabled={!issuer || discover.isPending}
            onClick={() => discover.mutate(issuer)}
          >
            {t('sso.test')}
          </Button>
          <div aria-live="polite" className="text-sm">
            {discover.isError && <span className="text-danger">{userMessageOf(discover.error)}</span>}
            {discover.data && (
              <span className="text-ink">
                {t('sso.testPassed', { endpoint: discover.data.authorizationEndpoint })}
                {!discover.data.supportsPkceS256 && ` ${t('sso.noPkce')}`}
              </span>
            )}
          </div>
        </div>
        <Field label={t('sso.clientId')}>
          <Input value={clientId} onChange={(event) => setClientId(event.target.value)} required />
        </Field>
        <Field label={t('sso.clientSecret')} hint={sso?.hasClientSecret ? t('sso.secretKept') : t('sso.secretHint')}>
          <Input
            type="password"
            autoComplete="off"
            value={clientSecret}
            onChange={(event) => setClientSecret(event.target.value)}
          />
        </Field>
        <Field label={t('sso.domains')} hint={t('sso.domainsHint')}>
          <Input value={domains} onChange={(event) => setDomains(event.target.value)} />
        </Field>
        <SwitchField label={t('sso.enabled')} checked={enabled} onCheckedChange={setEnabled} />
        <Button type="submit" disabled={save.isPending} className="self-start">
          {t('sso.save')}
        </Button>
      </form>
    </Card>
  );
}
