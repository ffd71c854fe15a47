import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { toast } from '@exam/ui/toaster';
import { useMutation } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import type { CredentialsState } from '../../../lib/navigation-state.ts';
import { carriedValue, forgetCarriedValue } from '../../../lib/prerendered-form.ts';
import { findExamId, parseInviteToken } from '../lib/parse-exam-url.ts';

/** What is wrong with the URL; kept as a fact, not a sentence, so a language switch rewrites the message. */
type Problem = { kind: 'empty' | 'invalid' | 'offline' } | { kind: 'failed'; error: unknown };

/** Which message a problem shows: not found, offline, or the network failure with its reason. */
function messageFor(problem: Problem, t: TFunction<['start', 'common']>): string {
  if (problem.kind !== 'failed') return t(`errors.${problem.kind}`);
  const { error } = problem;
  if (error instanceof ApiError) {
    if (error.status === 404 || error.status === 400) return t('errors.notFound');
    if (error.code === 'EXAM_OFFLINE') return t('errors.offline');
    const reason = error.isNetwork ? t('common:networkError') : error.statusText || error.userMessage;
    return `${t('errors.network')} ${reason}`.trim();
  }
  return t('errors.network');
}

export function ExamUrlForm() {
  const { t } = useTranslation(['start', 'common']);
  const navigate = useNavigate();
  const [url, setUrl] = useState(() => carriedValue('examUrl') ?? '');
  const [problem, setProblem] = useState<Problem>();
  // The page may be prerendered HTML (app/prerender.tsx) that a candidate typed into before the script came:
  // hydration leaves the typed text in the field, so it becomes the state here; and Continue waits for this
  // (a click on the bare HTML would submit the form to the page itself and lose the text).
  const field = useRef<HTMLInputElement>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    forgetCarriedValue('examUrl');
    const typed = field.current?.value;
    if (typed) setUrl(typed);
    setReady(true);
  }, []);
  const validate = useMutation({
    // exam-api (with the domain's schemas and zod) loads on Continue: the form shows without it.
    mutationFn: async (examId: string) => {
      const { getPublicExam } = await import('../../../lib/exam-api.ts');
      return { examId, exam: await getPublicExam(examId) };
    },
    onSuccess: ({ examId, exam }) => {
      if (!exam.isLive) {
        setProblem({ kind: 'offline' });
        return;
      }
      toast.success(t('errors.found'));
      const state: CredentialsState = {
        examId,
        examTitle: exam.title,
        examUrl: url.trim(),
        fullScreenRequested: exam.fullScreenEnabled,
        access: exam.access,
        ...(parseInviteToken(url) && { inviteToken: parseInviteToken(url) }),
      };
      void navigate(paths.credentials, { state });
    },
    onError: (error) => setProblem({ kind: 'failed', error }),
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setProblem(undefined);
    if (!url.trim()) return setProblem({ kind: 'empty' });
    const examId = findExamId(url);
    if (!examId) return setProblem({ kind: 'invalid' });
    validate.mutate(examId);
  }

  return (
    <Card className="w-full max-w-md p-8">
      <h1 className="text-2xl font-semibold text-ink">{t('urlForm.title')}</h1>
      <p className="mt-1 text-sm text-muted">{t('urlForm.intro')}</p>
      <form className="mt-6 flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        <Field label={t('urlForm.label')} error={problem && messageFor(problem, t)}>
          <Input
            ref={field}
            type="url"
            name="examUrl"
            placeholder={t('urlForm.placeholder')}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            disabled={validate.isPending}
            autoFocus
          />
        </Field>
        <Button type="submit" disabled={!ready || validate.isPending}>
          {validate.isPending ? t('urlForm.checking') : t('urlForm.continue')}
        </Button>
        <Button variant="ghost" onClick={() => void navigate(paths.home)}>
          {t('urlForm.backHome')}
        </Button>
      </form>
    </Card>
  );
}
