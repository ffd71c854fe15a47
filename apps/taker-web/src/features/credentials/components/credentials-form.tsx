import { StartAttemptSchema, type StartAttempt } from '@exam/domain/attempt';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { toast } from '@exam/ui/toaster';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { translateServerMessage } from '../../../i18n/server-messages.ts';
import type { ApiError } from '../../../lib/api-client.ts';
import { startAttempt } from '../../../lib/exam-api.ts';
import type { CredentialsState, ExamState } from '../../../lib/navigation-state.ts';
import { identityOfGrant } from '../../../lib/lti-grant.ts';
import { findResume, saveResume } from '../../../lib/resume-store.ts';
import { getTakerDb, saveStoredAttempt } from '../../../lib/taker-db.ts';
import { useInvitation } from '../api/get-invitation.ts';
import { startFailure } from '../lib/start-failure.ts';
import { AccessCodeField, accessCodeError, RosterNotice } from './access-fields.tsx';

/**
 * A message on the form, kept as what it says rather than as a sentence, so switching the language rewrites
 * it: one of the form's own (a catalogue key) or a service's message (translated when shown).
 */
type Message =
  { key: 'errors.nameRequired' | 'errors.candidateIdRequired' | 'errors.resumeCodeRequired' } | { server: string };
type Errors = { name?: Message; studentId?: Message; resumeCode?: Message; accessCode?: Message };
const server = (text: string | undefined): Message | undefined => (text === undefined ? undefined : { server: text });
type StartInput = { examId: string; name: string; studentId: string; resumeCode?: string | undefined } & Pick<
  StartAttempt,
  'accessCode' | 'inviteToken' | 'ltiGrant'
>;

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
  onStart: () => void;
  isStarting: boolean;
  /** The last refused start (undefined: none). */
  startError: unknown;
  onBack: () => void;
  /** The briefing was refused for who the candidate is (a wrong access code, not on the roster). */
  onRefused: (error: ApiError) => void;
};

/**
 * Name and candidate ID, then the briefing (composed by the route), whose Start Exam starts the attempt. A start
 * refused for the resume code comes back here, asking for the code; that submit starts directly.
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
  const say = (message: Message | undefined) =>
    message === undefined ? undefined : 'key' in message ? t(message.key) : translateServerMessage(message.server);
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [studentId, setStudentId] = useState('');
  const [errors, setErrors] = useState<Errors>({});
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
  const [resumeCode, setResumeCode] = useState('');
  const [notice, setNotice] = useState<string>();
  // Access (docs/product.md#access): an invitation link fills and locks the identity; a code exam asks for its code.
  const [accessCode, setAccessCode] = useState('');
  const invitation = useInvitation(exam?.examId ?? '', exam?.inviteToken);
  const invited = invitation.data;
  const shownName = launched?.name ?? invited?.name ?? name;
  const shownStudentId = launched?.studentId ?? invited?.studentId ?? studentId;
  const locked = Boolean(invited ?? launched);
  const start = useMutation({
    mutationFn: async (input: StartInput) => {
      const kept = findResume(input.examId, input.studentId);
      const attempt = await startAttempt({ ...input, resumeSecret: kept?.secret });
      // The secret first: whatever happens next, this browser can resume silently.
      saveResume(input.examId, input.studentId, {
        attemptId: attempt.attemptId,
        secret: attempt.resumeSecret,
        code: attempt.resumeCode ?? input.resumeCode?.trim().toUpperCase(),
      });
      await saveStoredAttempt(await getTakerDb(), {
        examId: input.examId,
        attemptId: attempt.attemptId,
        token: attempt.token,
        name: input.name,
        studentId: input.studentId,
        startedAt: attempt.startedAt,
        deadline: attempt.deadline,
        fullScreenRequested: exam?.fullScreenRequested ?? false,
      });
      return attempt;
    },
    onSuccess: (_attempt, input) => {
      if (!exam) return;
      const state: ExamState = { ...exam, name: input.name, studentId: input.studentId };
      void navigate(paths.exam(input.examId), { state });
    },
    onError: (error, input) => {
      const codeRefused = accessCodeError(error);
      if (codeRefused) {
        setBriefed(undefined); // (back from the briefing to the form, where the access code is typed)
        setErrors({ accessCode: server(codeRefused) });
        return;
      }
      const failure = startFailure(error, Boolean(input.resumeCode));
      if (failure.kind === 'code') {
        // The first refusal asks for the code; a refusal of a typed code is that field's error.
        setBriefed(undefined); // (back from the briefing to the form)
        if (failure.sentCode) setErrors({ resumeCode: server(failure.message) });
        else setCodeAsked(failure.message);
        return;
      }
      // On the briefing the refusal shows there (the window, the attempts left).
      if (briefed) return setStartError(error);
      if (failure.kind === 'wait') setNotice(failure.message);
      toast.error(failure.message === undefined ? t('startFailed') : translateServerMessage(failure.message));
    },
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!exam) {
      void navigate(paths.start);
      return;
    }
    const typedCode = codeAsked !== undefined && resumeCode.trim() ? resumeCode : undefined;
    const parsed = StartAttemptSchema.safeParse({
      examId: exam.examId,
      name: shownName,
      studentId: shownStudentId,
      resumeCode: typedCode,
      ...(exam.access === 'code' && { accessCode }),
      ...(invited && { inviteToken: exam.inviteToken }),
      ...(launched && { ltiGrant }),
    });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        if (issue.path[0] === 'name') next.name = { key: 'errors.nameRequired' };
        if (issue.path[0] === 'studentId') next.studentId = { key: 'errors.candidateIdRequired' };
      }
      if (next.name === undefined && next.studentId === undefined)
        next.accessCode = server(parsed.error.issues[0]?.message);
      setErrors(next);
      return;
    }
    if (codeAsked !== undefined && !typedCode) {
      setErrors({ resumeCode: { key: 'errors.resumeCodeRequired' } });
      return;
    }
    setErrors({});
    setNotice(undefined);
    if (typedCode === undefined) {
      // First the briefing; its Start Exam starts the attempt.
      setStartError(undefined);
      const { resumeCode: _code, resumeSecret: _secret, ...details } = parsed.data;
      setBriefed(details);
      return;
    }
    if (exam.fullScreenRequested) void requestFullscreen();
    start.mutate(parsed.data);
  }

  if (exam && briefed) {
    return renderBriefing({
      request: briefed,
      onStart: () => {
        setStartError(undefined);
        if (exam.fullScreenRequested) void requestFullscreen();
        start.mutate(briefed);
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
        if (codeRefused) setErrors({ accessCode: server(codeRefused) });
        else toast.error(translateServerMessage(error.userMessage));
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
      <form className="mt-6 flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        {exam?.access === 'roster' && <RosterNotice invited={Boolean(invited)} />}
        {invitation.isError && (
          <p role="alert" className="text-sm text-danger">
            {t('common:server.inviteInvalid')}
          </p>
        )}
        <Field label={t('fullName')} error={say(errors.name)}>
          <Input
            name="name"
            autoComplete="name"
            required
            value={shownName}
            onChange={(e) => setName(e.target.value)}
            readOnly={locked}
            disabled={start.isPending}
          />
        </Field>
        <Field label={t('candidateId')} error={say(errors.studentId)}>
          <Input
            name="studentId"
            required
            value={shownStudentId}
            readOnly={locked}
            onChange={(e) => {
              setStudentId(e.target.value);
              // Another ID is another attempt: the code asked for the previous one no longer applies.
              setCodeAsked(undefined);
            }}
            disabled={start.isPending}
          />
        </Field>
        {exam?.access === 'code' && (
          <AccessCodeField
            value={accessCode}
            onChange={setAccessCode}
            error={say(errors.accessCode)}
            disabled={start.isPending}
          />
        )}
        {codeAsked !== undefined && (
          <>
            <p role="status" className="rounded-md bg-warning/10 p-3 text-sm text-ink" data-testid="resume-code-notice">
              {translateServerMessage(codeAsked)}
            </p>
            <Field label={t('resumeCode')} hint={t('resumeCodeHint')} error={say(errors.resumeCode)}>
              <Input
                name="resumeCode"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                value={resumeCode}
                onChange={(e) => setResumeCode(e.target.value)}
                disabled={start.isPending}
                autoFocus
              />
            </Field>
          </>
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
