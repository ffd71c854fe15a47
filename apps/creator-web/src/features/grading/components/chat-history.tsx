import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { Spinner } from '@exam/ui/spinner';
import { Button } from '@exam/ui/button';
import { RichText } from '@exam/ui/rich-text';
import { AlertTriangle, Bot, MessageSquareOff, Paperclip, ShieldAlert, User } from 'lucide-react';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useTranscript } from '../api/result-queries.ts';
import { formatTime } from '../../../lib/format-date.ts';

/** The candidate's real conversation with the AI assistant (llm-gateway transcript). */
export function ChatHistory({ attemptId, title = 'Chat History' }: { attemptId: string; title?: string }) {
  const transcript = useTranscript(attemptId);

  return (
    <Card>
      <CardHeader title={title} description="Messages the candidate exchanged with the AI assistant." />
      <CardBody>
        {transcript.isPending ? (
          <Spinner label="Loading conversation…" />
        ) : transcript.isError ? (
          <div role="alert" className="flex flex-col items-start gap-2 text-sm text-danger">
            <p className="flex items-center gap-2">
              <AlertTriangle aria-hidden className="h-4 w-4" /> The conversation could not be loaded:{' '}
              {userMessageOf(transcript.error)}
            </p>
            <Button variant="secondary" size="sm" onClick={() => void transcript.refetch()}>
              Try again
            </Button>
          </div>
        ) : transcript.data.messages.length === 0 ? (
          <EmptyState icon={<MessageSquareOff aria-hidden />} title="The candidate did not use the AI assistant." />
        ) : (
          <ol aria-label="Conversation" className="flex max-h-[32rem] flex-col gap-3 overflow-y-auto">
            {transcript.data.messages.map((m) => {
              const mine = m.role === 'user';
              return (
                <li key={m.id} className={mine ? 'flex justify-end' : 'flex justify-start'} data-role={m.role}>
                  <div
                    className={`max-w-[85%] rounded-lg px-3 py-2 text-sm ${mine ? 'bg-brand-50 text-ink' : m.isError ? 'bg-red-50 text-danger' : 'bg-canvas text-ink'}`}
                  >
                    <p className="mb-1 flex items-center gap-1 text-xs text-muted">
                      {mine ? <User aria-hidden className="h-3 w-3" /> : <Bot aria-hidden className="h-3 w-3" />}
                      {mine ? 'Candidate' : 'Assistant'} · {formatTime(m.createdAt, { seconds: true })}
                      {m.questionIndex !== null && ` · Question ${m.questionIndex + 1}`}
                      {m.isPartial && ' · cut short'}
                    </p>
                    {/* Replies as the candidate saw them (rich text); the candidate's own words as typed. */}
                    {mine || m.isError ? (
                      <p className="whitespace-pre-wrap break-words">{m.content}</p>
                    ) : (
                      <RichText>{m.content}</RichText>
                    )}
                    {m.isWithheld && (
                      <p role="note" className="mt-1 flex items-center gap-1 text-xs font-medium text-amber-800">
                        <ShieldAlert aria-hidden className="h-3 w-3" />
                        Stopped by the guardrail: the reply was about to give away the answer
                        {m.withheldQuestionIndex != null ? ` to Question ${m.withheldQuestionIndex + 1}` : ''}. The
                        candidate saw only the text above.
                      </p>
                    )}
                    {m.files.length > 0 && (
                      <p className="mt-1 flex items-center gap-1 text-xs text-muted">
                        <Paperclip aria-hidden className="h-3 w-3" /> {m.files.map((f) => f.name).join(', ')}
                      </p>
                    )}
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </CardBody>
    </Card>
  );
}
