import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { toast } from '@exam/ui/toaster';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { Controller, useForm, type FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { translateServerMessage } from '../../../i18n/server-messages.ts';
import type { ApiError } from '../../../lib/api-client.ts';
import type { CredentialsState, ExamState } from '../../../lib/navigation-state.ts';
import { identityOfGrant } from '../../../lib/lti-grant.ts';
import { useInvitation } from '../api/get-invitation.ts';
import { startKeptAttempt, type StartInput } from '../api/start-attempt.ts';
import { credentialsSchema, isFormMessageKey, type CredentialsValues } from '../lib/credentials-schema.ts';
import { startFailure } from '../lib/start-failure.ts';
import { AccessCodeField, accessCodeError, RosterNotice } from './access-fields.tsx';
import { IdentityFields } from './identity-fields.tsx';
import { ResumeCodeField } from './resume-code-field.tsx';

/**
 * Fullscreen must be asked for inside the click; a refusal is logged and the exam goes on, since a browser
 * that cannot go full screen must not lock the candidate out.
 */
async function requestFullscreen(): Promise<void> {
  try {
    await document.documentElement.requestFullscreen();
  } catch (error) {
    console.warn('Fullscreen request was refused', error);
  }
}

/** The details the briefing is read for and the start sends (with the exam's access code or invitation, if any). */
type Details = Omit<StartInput, 'resumeCode'> & { accessCode?: string; inviteToken?: string; ltiGrant?: string };

/** What the route's briefing (features/start) gets: the candidate's details, and Start. */
export type BriefingSlot = {
  request: Details;
  onStart: (options: { lastAttempt: boolean }) => void;
  isStarting: boolean;
  /** The last refused start (undefined: none). */
  startError: unknown;
  onBack: () => void;
  /** The briefing was refused for who the candidate is (a wrong access code, not on the roster). */
  onRefused: (error: ApiError) => void;
};

/** A service's refusal shown on a field (its `type` tells it from the form's own messages). */
const serverError = (message: string) => ({ type: 'server', message });
/** One toast for a refused start: trying again replaces it instead of stacking the same words twice. */
const START_REFUSED_TOAST = 'start-refused';
const emptyValues: CredentialsValues = { name: '', studentId: '', accessCode: '', resumeCode: '' };

/**
 * Name and candidate ID, then the briefing (composed by the route), whose Start Exam starts the attempt. A start
 * refused for the resume code comes back here, asking for the code; that submit starts directly. The fields'
 * state lives in the form (react-hook-form, checked on submit with the domain's StartAttemptSchema).
 */
export function CredentialsForm({
  exam,
  renderBriefing,
  windowNotice,
}: {
  exam: CredentialsState | undefined;
  renderBriefing: (slot: BriefingSlot) => ReactNode;
  /** Shown above the fields: the exam's availability window. */
  windowNotice?: ReactNode;
}) {
  const { t } = useTranslation(['credentials', 'common']);
  /** A message is kept as what it says, so switching the language rewrites it. */
  const say = (error: FieldError | undefined) => {
    const message = error?.message;
    if (!message) return undefined;
    return error.type !== 'server' && isFormMessageKey(message) ? t(message) : translateServerMessage(message);
  };
  const navigate = useNavigate();
  // An LMS launch fixed who the candidate is: no details to type, straight to the briefing.
  const ltiGrant = exam?.ltiGrant;
  const launched = ltiGrant ? identityOfGrant(ltiGrant) : undefined;
  // The details the briefing is shown for; the form shows again when they are cleared.
  const [briefed, setBriefed] = useState<Details | undefined>(() =>
    exam && launched && ltiGrant ? { examId: exam.examId, ...launched, ltiGrant } : undefined,
  );
  const [startError, setStartError] = useState<unknown>(undefined);
  // Set once the server says this candidate ID has an attempt elsewhere: the form then asks for its code.
  const [codeAsked, setCodeAsked] = useState<string>();
  const [notice, setNotice] = useState<string>();
  // Access (docs/product.md#access): an invitation link fills and locks the identity; a code exam asks for its code.
  const invitation = useInvitation(exam?.examId ?? '', exam?.inviteToken);
  const invited = invitation.data;
  const lockedName = launched?.name ?? invited?.name;
  const lockedStudentId = launched?.studentId ?? invited?.studentId;
  const locked = Boolean(invited ?? launched);
  const lockedValues = useMemo(
    () => (locked ? { ...emptyValues, name: lockedName ?? '', studentId: lockedStudentId ?? '' } : undefined),
    [locked, lockedName, lockedStudentId],
  );
  // A personal invitation link stands for the access code (the mail cannot carry the code, only its hash is kept).
  const asksAccessCode = exam?.access === 'code' && !invited;
  const schema = credentialsSchema({
    examId: exam?.examId ?? '',
    asksAccessCode,
    inviteToken: invited ? exam?.inviteToken : undefined,
    ltiGrant: launched ? ltiGrant : undefined,
    codeAsked: codeAsked !== undefined,
  });
  const form = useForm({
    defaultValues: emptyValues,
    values: lockedValues,
    // Checked when submitted, and again only at the next submit: the candidate is told on each Continue.
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    resolver: zodResolver(schema),
  });
  const { errors } = form.formState;
  const start = useMutation({
    // lastAttempt is this browser's to keep (the completion page's resume code): never sent with the start.
    mutationFn: ({ lastAttempt, ...input }: StartInput & { lastAttempt?: boolean }) =>
      startKeptAttempt(input, {
        fullScreenRequested: exam?.fullScreenRequested ?? false,
        lastAttempt,
      }),
    onSuccess: (_attempt, input) => {
      if (!exam) return;
      const state: ExamState = { ...exam, name: input.name, studentId: input.studentId };
      void navigate(paths.exam(input.examId), { state });
    },
    onError: (error, input) => {
      const codeRefused = accessCodeError(error);
      if (codeRefused) {
        setBriefed(undefined); // (back from the briefing to the form, where the access code is typed)
        form.clearErrors();
        form.setError('accessCode', serverError(codeRefused));
        return;
      }
      const failure = startFailure(error, Boolean(input.resumeCode));
      if (failure.kind === 'code') {
        // The first refusal asks for the code; a refusal of a typed code is that field's error.
        setBriefed(undefined); // (back from the briefing to the form)
        if (failure.sentCode) {
          form.clearErrors();
          if (failure.message !== undefined) form.setError('resumeCode', serverError(failure.message));
        } else setCodeAsked(failure.message);
        return;
      }
      // On the briefing the refusal shows there (the window, the attempts left).
      if (briefed) return setStartError(error);
      if (failure.kind === 'wait') setNotice(failure.message);
      toast.error(failure.message === undefined ? t('startFailed') : translateServerMessage(failure.message), {
        id: START_REFUSED_TOAST,
      });
    },
  });

  const onValid = form.handleSubmit(({ request, typedCode }) => {
    if (!exam) return;
    setNotice(undefined);
    if (typedCode === undefined) {
      // First the briefing; its Start Exam starts the attempt.
      setStartError(undefined);
      const { resumeCode: _code, resumeSecret: _secret, ...details } = request;
      setBriefed(details);
      return;
    }
    if (exam.fullScreenRequested) void requestFullscreen();
    start.mutate(request);
  });

  if (exam && briefed) {
    return renderBriefing({
      request: briefed,
      onStart: ({ lastAttempt }) => {
        setStartError(undefined);
        if (exam.fullScreenRequested) void requestFullscreen();
        start.mutate({ ...briefed, lastAttempt });
      },
      isStarting: start.isPending,
      startError,
      onBack: () => {
        setBriefed(undefined);
        setStartError(undefined);
      },
      onRefused: (error) => {
        // Back to the details: a wrong access code is that field's error, any other refusal is said at once.
        setBriefed(undefined);
        const codeRefused = accessCodeError(error);
        if (codeRefused) {
          form.clearErrors();
          form.setError('accessCode', serverError(codeRefused));
        } else toast.error(translateServerMessage(error.userMessage), { id: START_REFUSED_TOAST });
      },
    });
  }

  return (
    <Card className="w-full max-w-md p-8">
      <h1 className="text-2xl font-semibold text-ink">{t('title')}</h1>
      {exam?.examTitle && (
        <p className="mt-1 text-sm text-muted" data-testid="exam-title">
          {exam.examTitle}
        </p>
      )}
      {windowNotice}
      <form
        className="mt-6 flex flex-col gap-4"
        onSubmit={(event) => {
          if (exam) return void onValid(event);
          event.preventDefault();
          void navigate(paths.start);
        }}
        noValidate
      >
        {exam?.access === 'roster' && <RosterNotice invited={Boolean(invited)} />}
        {invitation.isError && (
          <p role="alert" className="text-sm text-danger">
            {t('common:server.inviteInvalid')}
          </p>
        )}
        <IdentityFields
          register={form.register}
          errors={{ name: say(errors.name), studentId: say(errors.studentId) }}
          locked={locked}
          disabled={start.isPending}
          // Another ID is another attempt: the code asked for the previous one no longer applies.
          onStudentIdChange={() => setCodeAsked(undefined)}
        />
        {asksAccessCode && (
          <Controller
            control={form.control}
            name="accessCode"
            render={({ field }) => (
              <AccessCodeField
                value={field.value}
                onChange={field.onChange}
                error={say(errors.accessCode)}
                disabled={start.isPending}
              />
            )}
          />
        )}
        {codeAsked !== undefined && (
          <ResumeCodeField
            notice={codeAsked}
            field={form.register('resumeCode')}
            error={say(errors.resumeCode)}
            disabled={start.isPending}
          />
        )}
        {notice && (
          <p role="alert" className="text-sm text-danger">
            {translateServerMessage(notice)}
          </p>
        )}
        <Button type="submit" disabled={start.isPending}>
          {start.isPending ? t('starting') : codeAsked !== undefined ? t('start') : t('continue')}
        </Button>
        <Button variant="ghost" onClick={() => void navigate(paths.start)}>
          {t('backToUrl')}
        </Button>
      </form>
    </Card>
  );
}
