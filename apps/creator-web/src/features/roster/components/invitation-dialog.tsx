import { INVITATION_MESSAGE_MAX } from '@exam/domain/roster';
import { Button } from '@exam/ui/button';
import { Dialog } from '@exam/ui/dialog';
import { Field } from '@exam/ui/field';
import { Textarea } from '@exam/ui/input';
import { Spinner } from '@exam/ui/spinner';
import { toast } from '@exam/ui/toaster';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useInvitationPreview, useInviteCandidates } from '../api/manage-roster.ts';

/** How long typing pauses before the preview is asked for again. */
const PREVIEW_DELAY_MS = 400;

function useSettled<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/**
 * Sending invitations (docs/product.md#rosters-and-invitations): the creator's message, the mail as the server
 * renders it (subject, the HTML part in a sandboxed frame that runs nothing, the plain-text part), how many
 * candidates get it and how many of them were invited before; nothing is sent until "Send N invitations".
 */
export function InvitationDialog(props: {
  examId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The chosen entries, or undefined for every candidate with an e-mail. */
  entryIds: string[] | undefined;
  onSent: () => void;
}) {
  const { t } = useTranslation('roster');
  const [message, setMessage] = useState('');
  const settledMessage = useSettled(message.trim(), PREVIEW_DELAY_MS);
  const preview = useInvitationPreview(props.examId, { entryIds: props.entryIds, message: settledMessage }, props.open);
  const invite = useInviteCandidates(props.examId);
  const data = preview.data;
  const recipients = data?.recipients ?? 0;

  useEffect(() => {
    if (!props.open) setMessage('');
  }, [props.open]);

  const send = () =>
    invite.mutate(
      { entryIds: props.entryIds, message: message.trim() },
      {
        onSuccess: (r) => {
          toast.success(t('rosterPage.queuedInvitations', { count: r.invited }));
          props.onSent();
          props.onOpenChange(false);
        },
        onError: (error) => toast.error(userMessageOf(error)),
      },
    );

  return (
    <Dialog
      open={props.open}
      onOpenChange={props.onOpenChange}
      title={t('invitationDialog.title')}
      description={t('invitationDialog.description')}
      className="max-h-[92vh] w-[min(96vw,48rem)] overflow-y-auto"
      footer={
        <>
          <Button variant="secondary" onClick={() => props.onOpenChange(false)}>
            {t('invitationDialog.cancel')}
          </Button>
          <Button
            onClick={send}
            disabled={!data || preview.isFetching || recipients === 0 || invite.isPending}
            data-testid="send-invitations"
          >
            {t('invitationDialog.send', { count: recipients })}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        <Field
          label={t('invitationDialog.message')}
          hint={t('invitationDialog.messageHint', { max: INVITATION_MESSAGE_MAX, used: message.length })}
        >
          <Textarea
            name="invitationMessage"
            rows={3}
            maxLength={INVITATION_MESSAGE_MAX}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
        </Field>
        {preview.isError ? (
          <p role="alert" className="text-sm text-danger">
            {userMessageOf(preview.error)}
          </p>
        ) : !data ? (
          <Spinner label={t('invitationDialog.loadingPreview')} />
        ) : (
          <section aria-label={t('invitationDialog.preview')} className="flex flex-col gap-3">
            <p className="text-sm text-ink" data-testid="invitation-recipients">
              {t('invitationDialog.recipients', { count: recipients })}
              {data.alreadyInvited > 0 && (
                <>
                  {' '}
                  <strong>{t('invitationDialog.alreadyInvited', { count: data.alreadyInvited })}</strong>
                </>
              )}
            </p>
            <h3 className="text-sm font-semibold text-ink">
              {data.candidate
                ? t('invitationDialog.previewFor', {
                    name: data.candidate.name,
                    candidateId: data.candidate.candidateId,
                  })
                : t('invitationDialog.previewSample')}
            </h3>
            <dl className="text-sm">
              <dt className="text-xs text-muted">{t('invitationDialog.subject')}</dt>
              <dd className="font-medium text-ink" data-testid="invitation-subject">
                {data.subject}
              </dd>
            </dl>
            {/* An empty sandbox: the mail's HTML runs no script and reaches nothing of this page. */}
            <iframe
              title={t('invitationDialog.htmlPreview')}
              sandbox=""
              srcDoc={data.html}
              className="h-72 w-full rounded-md border border-line bg-white"
            />
            <details className="text-sm">
              <summary className="cursor-pointer text-ink">{t('invitationDialog.textVersion')}</summary>
              {/* It scrolls, so it takes the focus (keyboard users scroll it too). */}
              <pre
                tabIndex={0}
                aria-label={t('invitationDialog.textVersion')}
                className="mt-2 max-h-60 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-50 p-3 font-mono text-xs text-ink"
                data-testid="invitation-text"
              >
                {data.text}
              </pre>
            </details>
          </section>
        )}
      </div>
    </Dialog>
  );
}
