import { AI_CATALOGUE } from '@exam/domain/ai-catalogue';
import type { PublicAiSettings } from '@exam/domain/exam-ai';
import type { PublicExam } from '@exam/domain/public-exam';
import { CHAT_MAX_FILE_BYTES, CHAT_MAX_FILES, CHAT_MAX_MESSAGE_CHARS } from '@exam/domain/llm';
import { Button } from '@exam/ui/button';
import { ChatComposer } from '@exam/ui/chat-composer';
import { Spinner } from '@exam/ui/spinner';
import { AlertTriangle, Bot, BotOff, Info } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useChatSession } from '../hooks/use-chat-session.ts';
import { acceptFiles, toChatFile, type SkippedFile } from '../lib/attachments.ts';
import { AssistantMessages, type ListedMessage } from './assistant-messages.tsx';
import { AttachButton, AttachmentChips } from './attachment-picker.tsx';

export type AssistantPanelProps = {
  exam: PublicExam;
  attempt: { attemptId: string; token: string } | null;
  preview: boolean;
  /** The question the candidate last focused or touched, for the assistant's context. */
  activeQuestionIndex: number;
  /**
   * The candidate's current section has no assistant (sections.ts): the conversation stays readable, the panel
   * says so plainly and takes no message until a section with the assistant.
   */
  assistantOff?: boolean | undefined;
};

/** The configuration problems the exam API names (missingAiConfiguration), by catalogue key. */
const MISSING_KEYS = {
  'API key missing.': 'missing.apiKey',
  'Provider not selected.': 'missing.provider',
  'Model not selected.': 'missing.model',
} as const;
const isKnownMissing = (item: string): item is keyof typeof MISSING_KEYS => item in MISSING_KEYS;

type Translate = ReturnType<typeof useTranslation<'assistant'>>['t'];

/** The greeting: the creator's welcome message, or a hello in the candidate's language (docs/product.md#the-assistant). */
function greetingText(ai: PublicAiSettings, t: Translate): string {
  const welcome = ai.startMessage.trim();
  if (welcome) return welcome;
  const parts = [t('greeting.hello', { provider: AI_CATALOGUE[ai.provider].label })];
  if (ai.uploadDocuments) parts.push(t('greeting.attachments'));
  if (ai.materialNames.length > 0) parts.push(t('greeting.materials', { names: ai.materialNames.join(', ') }));
  return parts.join(' ');
}

function skippedNotice(skipped: SkippedFile, t: Translate): string {
  return skipped.reason === 'tooLarge'
    ? t('tooLarge', { name: skipped.name, size: Math.round(CHAT_MAX_FILE_BYTES / (1024 * 1024)) })
    : t('tooMany', { name: skipped.name, count: CHAT_MAX_FILES });
}

function Notice({ icon, title, children }: { icon: ReactNode; title: string; children?: ReactNode }) {
  return (
    <div
      className="flex h-full flex-col items-center justify-center gap-2 p-4 text-center text-sm text-muted"
      data-testid="assistant-panel"
    >
      <span className="text-muted [&>svg]:h-6 [&>svg]:w-6">{icon}</span>
      <p className="font-medium text-ink">{title}</p>
      {children}
    </div>
  );
}

/** The candidate's AI assistant, as the creator configured it (docs/product.md#the-assistant). */
export function AssistantPanel({ exam, attempt, preview, activeQuestionIndex, assistantOff = false }: AssistantPanelProps) {
  const { t } = useTranslation('assistant');
  const ai = exam.aiSettings;
  if (!ai.enabled) return <Notice icon={<Bot aria-hidden />} title={t('notEnabled')} />;
  if (ai.missing.length > 0) {
    return (
      <Notice icon={<AlertTriangle aria-hidden />} title={t('configurationIncomplete')}>
        <ul aria-label={t('missingSettings')} className="list-inside list-disc text-left">
          {ai.missing.map((item) => (
            <li key={item}>{isKnownMissing(item) ? t(MISSING_KEYS[item]) : item}</li>
          ))}
        </ul>
      </Notice>
    );
  }
  return (
    <AssistantChat
      exam={exam}
      attempt={preview ? null : attempt}
      activeQuestionIndex={activeQuestionIndex}
      off={assistantOff}
    />
  );
}

function AssistantChat({
  exam,
  attempt,
  activeQuestionIndex,
  off,
}: {
  exam: PublicExam;
  attempt: AssistantPanelProps['attempt'];
  activeQuestionIndex: number;
  off: boolean;
}) {
  const { t } = useTranslation('assistant');
  const ai = exam.aiSettings;
  const chat = useChatSession(attempt);
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [notices, setNotices] = useState<string[]>([]);
  const [reading, setReading] = useState(false);
  // Read when sending, not when rendering: the candidate may switch question while typing.
  const questionRef = useRef(activeQuestionIndex);
  useEffect(() => {
    questionRef.current = activeQuestionIndex;
  }, [activeQuestionIndex]);

  const greeting = useMemo<ListedMessage>(
    () => ({ key: 'greeting', role: 'assistant', content: greetingText(ai, t) }),
    [ai, t],
  );
  const messages = useMemo(() => [greeting, ...chat.messages], [greeting, chat.messages]);
  const ready = attempt !== null && chat.restored && !off;
  const hasContent = text.trim().length > 0 || files.length > 0;
  const canSend = ready && !chat.pending && !reading && hasContent;
  const streaming = chat.messages.at(-1)?.isStreaming === true;

  const send = async () => {
    if (!canSend || !chat.session) return;
    setReading(true);
    try {
      const chatFiles = await Promise.all(files.map(toChatFile));
      const message = text.trim();
      setText('');
      setFiles([]);
      setNotices([]);
      void chat.session.send({ message, files: chatFiles, questionIndex: questionRef.current });
    } catch (error) {
      setNotices([error instanceof Error ? error.message : t('readFailed')]);
    } finally {
      setReading(false);
    }
  };

  const pick = (picked: File[]) => {
    const result = acceptFiles(files, picked);
    setFiles(result.files);
    setNotices(result.skipped.map((skipped) => skippedNotice(skipped, t)));
  };

  return (
    <div className="flex h-full min-h-0 flex-col" data-testid="assistant-panel">
      <AssistantMessages
        messages={messages}
        typing={chat.pending && !streaming}
        reconnecting={chat.reconnecting}
        canCopy={ai.copyLLMResponse}
      />
      <div className="flex flex-col gap-1.5 border-t border-line p-2">
        {off && (
          <p
            role="status"
            className="flex items-start gap-1.5 rounded-md bg-slate-100 p-2 text-sm font-medium text-ink"
            data-testid="assistant-off-notice"
          >
            <BotOff aria-hidden className="mt-0.5 h-4 w-4 shrink-0" /> {t('sectionOff')}
          </p>
        )}
        {attempt === null && !off && (
          <p className="flex items-start gap-1.5 rounded-md bg-brand-50 p-2 text-xs text-brand-700">
            <Info aria-hidden className="mt-0.5 h-3.5 w-3.5 shrink-0" /> {t('previewNote')}
          </p>
        )}
        {attempt !== null &&
          !chat.restored &&
          (chat.restoreFailed ? (
            <div role="alert" className="flex items-center justify-between gap-2 text-xs text-danger">
              {t('loadFailed')}
              <Button size="sm" variant="secondary" onClick={chat.retryRestore}>
                {t('tryAgain')}
              </Button>
            </div>
          ) : (
            <Spinner label={t('loading')} className="text-xs" />
          ))}
        <ChatComposer
          label={t('composerLabel')}
          placeholder={ready ? t('placeholder') : off ? t('sectionOff') : undefined}
          value={text}
          onChange={setText}
          onSend={() => void send()}
          canSend={canSend}
          disabled={!ready}
          maxLength={CHAT_MAX_MESSAGE_CHARS}
          top={
            ai.uploadDocuments ? (
              <AttachmentChips
                files={files}
                notices={notices}
                onRemove={(i) => setFiles((current) => current.filter((_, at) => at !== i))}
              />
            ) : undefined
          }
          tools={ai.uploadDocuments ? <AttachButton disabled={!ready} onPick={pick} /> : undefined}
        />
        {!ai.copyLLMResponse && <p className="text-center text-[11px] text-muted">{t('copyDisabled')}</p>}
      </div>
    </div>
  );
}
