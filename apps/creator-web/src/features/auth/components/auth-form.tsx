import { CredentialsSchema, LoginSchema, MIN_PASSWORD_LENGTH, type Credentials } from '@exam/domain/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { AlertCircle } from 'lucide-react';
import { useRef, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { saveSession } from '../../../lib/auth-storage.ts';
import { useAuthenticate, type AuthMode } from '../api/sign-in.ts';
import { placeServerIssues } from './server-issues.ts';
import { SsoSignInForm } from './sso-sign-in-form.tsx';
import { useTranslation } from 'react-i18next';

const FIELDS = ['email', 'password'] as const;

/** The dashboard opens about a second after a successful sign-in, so the success toast can be read. */
export const REDIRECT_DELAY_MS = 1000;

export function AuthForm({ onAuthenticated }: { onAuthenticated: () => void }) {
  const { t } = useTranslation('auth');
  const [mode, setMode] = useState<AuthMode>('signin');
  const [isRedirecting, setIsRedirecting] = useState(false);
  const [issuesPlaced, setIssuesPlaced] = useState(false);
  const [withSso, setWithSso] = useState(false);
  const authenticate = useAuthenticate();
  // Sign-up applies the password policy; sign-in accepts any password, so older accounts can still sign in.
  const modeRef = useRef(mode);
  modeRef.current = mode;
  const resolver: Resolver<Credentials> = (values, context, options) =>
    zodResolver(modeRef.current === 'signin' ? LoginSchema : CredentialsSchema)(values, context, options);
  const form = useForm<Credentials>({ resolver, defaultValues: { email: '', password: '' } });
  const { errors } = form.formState;
  const isProcessing = authenticate.isPending || isRedirecting;
  const text = t(`authForm.${mode}`, { returnObjects: true });

  const submit = form.handleSubmit((credentials) => {
    authenticate.mutate(
      { mode, credentials },
      {
        onError: (error) => setIssuesPlaced(placeServerIssues(error, FIELDS, form.setError)),
        onSuccess: (session) => {
          saveSession(session);
          setIsRedirecting(true);
          window.setTimeout(onAuthenticated, REDIRECT_DELAY_MS);
        },
      },
    );
  });

  const switchMode = () => {
    setMode(mode === 'signin' ? 'signup' : 'signin');
    authenticate.reset();
    setIssuesPlaced(false);
    form.clearErrors();
  };

  if (withSso)
    return (
      <Card className="w-full max-w-md p-8">
        <h1 className="text-2xl font-semibold tracking-tight text-ink">{t('sso.title')}</h1>
        <SsoSignInForm onCancel={() => setWithSso(false)} />
      </Card>
    );

  return (
    <Card className="w-full max-w-md p-8">
      <h1 className="text-2xl font-semibold tracking-tight text-ink">{text.title}</h1>
      <p className="mt-1 text-sm text-muted">{text.subtitle}</p>
      <form className="mt-6 flex flex-col gap-4" onSubmit={submit} noValidate>
        {authenticate.isError && !issuesPlaced && (
          <div
            role="alert"
            className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
          >
            <AlertCircle aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
            {userMessageOf(authenticate.error)}
          </div>
        )}
        <Field label={t('authForm.emailAddress')} error={errors.email?.message}>
          <Input
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            disabled={isProcessing}
            required
            {...form.register('email')}
          />
        </Field>
        <Field label={t('authForm.password')} error={errors.password?.message}>
          <Input
            type="password"
            autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
            placeholder={mode === 'signup' ? t('authForm.atLeastMinPassword', { min: MIN_PASSWORD_LENGTH }) : undefined}
            disabled={isProcessing}
            required
            {...form.register('password')}
          />
        </Field>
        <Button type="submit" size="lg" disabled={isProcessing} className="mt-2 w-full">
          {isProcessing ? t('authForm.processing') : text.submit}
        </Button>
      </form>
      {mode === 'signin' && (
        <Button
          type="button"
          variant="secondary"
          size="lg"
          disabled={isProcessing}
          className="mt-3 w-full"
          onClick={() => setWithSso(true)}
        >
          {t('sso.button')}
        </Button>
      )}
      <div className="mt-6 flex flex-col items-center gap-3 text-sm">
        {mode === 'signin' && (
          <Link to={paths.forgotPassword} className="font-medium text-muted hover:text-ink hover:underline">
            {t('authForm.forgotYourPassword')}
          </Link>
        )}
        <button
          type="button"
          onClick={switchMode}
          disabled={isProcessing}
          className="font-medium text-brand-600 hover:text-brand-700 hover:underline disabled:text-muted"
        >
          {text.toggle}
        </button>
      </div>
    </Card>
  );
}
