import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { Spinner } from '@exam/ui/spinner';
import { Button } from '@exam/ui/button';
import { RichText } from '@exam/ui/rich-text';
import { AlertTriangle, Bot, FlaskConical, MessageSquareOff, Paperclip, ShieldAlert, User } from 'lucide-react';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useTranscript } from '../api/grade-result.ts';
import { formatTime } from '../../../lib/format-date.ts';
import { useTranslation } from 'react-i18next';
import { useExamNumber } from './question-numbering.tsx';

/** The candidate's real conversation with the AI assistant (llm-gateway transcript). */
export function ChatHistory({ attemptId, title }: { attemptId: string; title?: string }) {
  const { t } = useTranslation('grading');
  const transcript = useTranscript(attemptId);
  // Messages are tagged with the candidate's question; the grader reads it by the exam's number.
  const numberOf = useExamNumber();

  return (
    <Card>
      <CardHeader
        title={title ?? t('chatHistory.chatHistory')}
        description={t('chatHistory.messagesTheCandidateExchanged')}
      />
      <CardBody>
        {transcript.isPending ? (
          <Spinner label={t('chatHistory.loadingConversation')} />
        ) : transcript.isError ? (
          <div role="alert" className="flex flex-col items-start gap-2 text-sm text-danger">
            <p className="flex items-center gap-2">
              <AlertTriangle aria-hidden className="h-4 w-4" />{' '}
              {t('chatHistory.theConversationCouldNot', { message: userMessageOf(transcript.error) })}
            </p>
            <Button variant="secondary" size="sm" onClick={() => void transcript.refetch()}>
              {t('chatHistory.tryAgain')}
            </Button>
          </div>
        ) : transcript.data.messages.length === 0 ? (
          <EmptyState icon={<MessageSquareOff aria-hidden />} title={t('chatHistory.theCandidateDidNot')} />
        ) : (
          <ol aria-label={t('chatHistory.conversation')} className="flex max-h-[32rem] flex-col gap-3 overflow-y-auto">
            {transcript.data.messages.map((m) => {
              const mine = m.role === 'user';
              return (
                <li key={m.id} className={mine ? 'flex justify-end' : 'flex justify-start'} data-role={m.role}>
                  <div
                    className={`max-w-[85%] rounded-lg px-3 py-2 text-sm ${mine ? 'bg-brand-50 text-ink' : m.isError ? 'bg-red-50 text-danger' : 'bg-canvas text-ink'}`}
                  >
                    <p className="mb-1 flex items-center gap-1 text-xs text-muted">
                      {mine ? <User aria-hidden className="h-3 w-3" /> : <Bot aria-hidden className="h-3 w-3" />}
                      {mine ? t('chatHistory.candidate') : t('chatHistory.assistant')} ·{' '}
                      {formatTime(m.createdAt, { seconds: true })}
                      {m.questionIndex !== null && t('chatHistory.questionValue', { value: numberOf(m.questionIndex) })}
                      {m.isPartial && t('chatHistory.cutShort')}
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
                        {t('chatHistory.stoppedByTheGuardrail')}
                        {m.withheldQuestionIndex != null
                          ? t('chatHistory.toQuestionValue', { value: numberOf(m.withheldQuestionIndex) })
                          : ''}
                        {t('chatHistory.theCandidateSawOnly')}
                      </p>
                    )}
                    {m.planted && (
                      // Reliance calibration: the reply was asked to be wrong on purpose (docs/product.md).
                      <p
                        role="note"
                        className="mt-1 flex items-center gap-1 text-xs font-medium text-violet-800"
                        data-planted={m.planted.verified ? 'verified' : 'not-verified'}
                      >
                        <FlaskConical aria-hidden className="h-3 w-3" />
                        {t('chatHistory.plantedError', { error: m.planted.error })}
                        {m.planted.verified ? t('chatHistory.plantedVerified') : t('chatHistory.plantedNotVerified')}
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
