import { ANNOUNCEMENT_MAX_LENGTH, CreateAnnouncementSchema, type Announcement } from '@exam/domain/live';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Textarea } from '@exam/ui/input';
import { toast } from '@exam/ui/toaster';
import { Megaphone } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useSendAnnouncement } from '../api/manage-live-exam.ts';
import { formatTime } from '../../../lib/format-date.ts';
import { useTranslation } from 'react-i18next';

/** One message to everyone sitting the exam: their pages show it within seconds, and results keep it. */
export function AnnouncementBox({ examId, announcements }: { examId: string; announcements: Announcement[] }) {
  const { t } = useTranslation('live');
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const send = useSendAnnouncement(examId);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = CreateAnnouncementSchema.safeParse({ text });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    send.mutate(parsed.data.text, {
      onSuccess: () => {
        setText('');
        toast.success(t('announcementBox.announcementSent'));
      },
      onError: (failure) => setError(userMessageOf(failure)),
    });
  }

  return (
    <Card>
      <CardHeader title={t('announcementBox.announcements')} description={t('announcementBox.shownOnEveryCandidate')} />
      <CardBody>
        <form className="flex flex-col gap-3" onSubmit={onSubmit} noValidate>
          <Field
            label={t('announcementBox.announcementToAllCandidates')}
            error={error}
            hint={t('announcementBox.lengthAnnouncementMaxLength', {
              length: text.trim().length,
              ANNOUNCEMENT_MAX_LENGTH,
            })}
          >
            <Textarea
              name="announcement"
              rows={3}
              value={text}
              onChange={(e) => setText(e.target.value)}
              disabled={send.isPending}
            />
          </Field>
          <div>
            <Button type="submit" disabled={send.isPending}>
              <Megaphone aria-hidden className="h-4 w-4" /> {t('announcementBox.sendAnnouncement')}
            </Button>
          </div>
        </form>
        <h3 className="mt-6 text-sm font-semibold text-ink">{t('announcementBox.sent')}</h3>
        {announcements.length === 0 ? (
          <p className="mt-1 text-sm text-muted">{t('announcementBox.noAnnouncementsYet')}</p>
        ) : (
          <ol aria-label={t('announcementBox.announcementsSent')} className="mt-2 flex flex-col gap-2">
            {announcements.map((a) => (
              <li key={a.id} className="rounded-lg border border-line p-3 text-sm">
                <time dateTime={a.at} className="block text-xs text-muted">
                  {formatTime(a.at)}
                </time>
                <p className="mt-1 whitespace-pre-wrap break-words text-ink">{a.text}</p>
              </li>
            ))}
          </ol>
        )}
      </CardBody>
    </Card>
  );
}
