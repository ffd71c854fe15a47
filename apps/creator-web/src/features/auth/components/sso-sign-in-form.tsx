import { Button } from '@exam/ui/button';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { AlertCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { startSingleSignOn } from '../api/single-sign-on.ts';

/**
 * Sign-in through the organization's identity provider: the e-mail's domain names the organization, and the browser
 * goes to the provider; it comes back to /sso-callback.
 */
export function SsoSignInForm({ onCancel }: { onCancel: () => void }) {
  const { t } = useTranslation('auth');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) {
      setError(t('sso.enterEmail'));
      return;
    }
    setPending(true);
    setError(undefined);
    startSingleSignOn(email.trim())
      .then(({ authorizationUrl }) => window.location.assign(authorizationUrl))
      .catch((err: unknown) => {
        setError(userMessageOf(err));
        setPending(false);
      });
  };

  return (
    <form className="mt-6 flex flex-col gap-4" onSubmit={submit} noValidate aria-label={t('sso.title')}>
      <p className="text-sm text-muted">{t('sso.intro')}</p>
      {error && (
        <div
          role="alert"
          className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
        >
          <AlertCircle aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
          {error}
        </div>
      )}
      <Field label={t('sso.workEmail')}>
        <Input
          type="email"
          autoComplete="email"
          placeholder="you@university.edu"
          value={email}
          disabled={pending}
          onChange={(event) => setEmail(event.target.value)}
          required
        />
      </Field>
      <Button type="submit" size="lg" disabled={pending} className="w-full">
        {pending ? t('sso.redirecting') : t('sso.continue')}
      </Button>
      <button
        type="button"
        onClick={onCancel}
        disabled={pending}
        className="text-sm font-medium text-brand-600 hover:text-brand-700 hover:underline disabled:text-muted"
      >
        {t('sso.usePassword')}
      </button>
    </form>
  );
}
