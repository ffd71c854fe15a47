import { ANNOUNCEMENT_MAX_LENGTH, CreateAnnouncementSchema, type Announcement } from '@exam/domain/live';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Textarea } from '@exam/ui/input';
import { toast } from '@exam/ui/toaster';
import { Megaphone } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useSendAnnouncement } from '../api/live-queries.ts';
import { formatTime } from '../../../lib/format-date.ts';

/** One message to everyone sitting the exam: their pages show it within seconds, and results keep it. */
export function AnnouncementBox({ examId, announcements }: { examId: string; announcements: Announcement[] }) {
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
        toast.success('Announcement sent');
      },
      onError: (failure) => setError(userMessageOf(failure)),
    });
  }

  return (
    <Card>
      <CardHeader title="Announcements" description="Shown on every candidate's page within a few seconds." />
      <CardBody>
        <form className="flex flex-col gap-3" onSubmit={onSubmit} noValidate>
          <Field
            label="Announcement to all candidates"
            error={error}
            hint={`${text.trim().length} / ${ANNOUNCEMENT_MAX_LENGTH} characters`}
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
              <Megaphone aria-hidden className="h-4 w-4" /> Send announcement
            </Button>
          </div>
        </form>
        <h3 className="mt-6 text-sm font-semibold text-ink">Sent</h3>
        {announcements.length === 0 ? (
          <p className="mt-1 text-sm text-muted">No announcements yet.</p>
        ) : (
          <ol aria-label="Announcements sent" className="mt-2 flex flex-col gap-2">
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
