import type { AiProvider } from '@exam/domain/ai-catalogue';
import { CHAT_MAX_MESSAGE_CHARS } from '@exam/domain/llm';
import { greetingOf } from '@exam/domain/llm-greeting';
import { Button } from '@exam/ui/button';
import { ChatComposer } from '@exam/ui/chat-composer';
import { ChatMessage, TypingIndicator } from '@exam/ui/chat-message';
import { Dialog } from '@exam/ui/dialog';
import { toast } from '@exam/ui/toaster';
import { Copy, FlaskConical, RotateCcw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { copyText } from '../../../lib/copy-text.ts';
import { useTestChat, type TestChatDraft } from '../hooks/use-test-chat.ts';
import { useTranslation } from 'react-i18next';

/** The saved settings the greeting is made from (the same rule as the candidate's panel). */
export type TestAssistantSettings = {
  provider?: AiProvider | undefined;
  startMessage?: string | undefined;
  uploadDocuments?: boolean | undefined;
  materialNames: string[];
};

type Props = {
  /** Undefined while the exam has never been saved. */
  examId: string | undefined;
  settings: TestAssistantSettings;
  /** The AI settings on screen, saved or not; undefined when they cannot be tried before a save (new materials). */
  draft: TestChatDraft | undefined;
};

/**
 * The exam editor's Test Assistant: the creator chats with the assistant as the settings on screen make it, saved
 * or not, without leaving the editor (the gateway checks those settings as a save would).
 */
export function TestAssistant({ examId, settings, draft }: Props) {
  const { t } = useTranslation('assistant');
  const [open, setOpen] = useState(false);
  const canTest = examId !== undefined && draft !== undefined;
  return (
    <div
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-dashed border-line p-4"
      data-testid="test-assistant"
    >
      <div className="flex flex-col gap-0.5">
        <span className="text-sm font-medium text-ink">{t('testAssistant.tryTheAssistant')}</span>
        <span className="text-xs text-muted">
          {canTest ? t('testAssistant.chatWithItExactly') : examId === undefined ? t('saveFirst') : t('saveMaterials')}
        </span>
      </div>
      <Button variant="secondary" disabled={!canTest} onClick={() => setOpen(true)}>
        <FlaskConical aria-hidden className="h-4 w-4" /> {t('testAssistant.testAssistant')}
      </Button>
      {examId !== undefined && (
        <TestAssistantDialog
          examId={examId}
          draft={draft}
          open={open && canTest}
          onOpenChange={setOpen}
          settings={settings}
        />
      )}
    </div>
  );
}

function TestAssistantDialog({
  examId,
  draft,
  open,
  onOpenChange,
  settings,
}: {
  examId: string;
  draft: TestChatDraft | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  settings: TestAssistantSettings;
}) {
  const { t } = useTranslation('assistant');
  const chat = useTestChat(examId, draft);
  const [text, setText] = useState('');
  const listRef = useRef<HTMLDivElement>(null);
  const last = chat.messages.at(-1);
  const greeting = greetingOf({
    provider: settings.provider ?? 'openai',
    startMessage: settings.startMessage ?? '',
    uploadDocuments: settings.uploadDocuments ?? false,
    materialNames: settings.materialNames,
  });
  const canSend = !chat.pending && text.trim().length > 0;

  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [chat.messages.length, last?.content, chat.pending]);

  const send = () => {
    if (!canSend) return;
    void chat.send(text);
    setText('');
  };
  const copy = async (content: string) => {
    if (await copyText(content)) toast.success(t('testAssistant.replyCopied'));
    else toast.error(t('testAssistant.copyFailedPleaseManually'));
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('testAssistant.testAssistant')}
      description={t('testAssistant.theAssistantOnScreen')}
      className="flex h-[min(88vh,44rem)] w-[min(94vw,44rem)] flex-col"
      closeButton
    >
      <div className="flex h-[min(62vh,32rem)] flex-col gap-2">
        <div
          ref={listRef}
          role="log"
          aria-label={t('testAssistant.testConversation')}
          aria-live="polite"
          className="flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto rounded-lg bg-canvas p-3"
        >
          <ChatMessage message={{ role: 'assistant', content: greeting }} />
          {chat.messages.map((m) => (
            <ChatMessage
              key={m.key}
              message={m}
              author={m.role === 'user' ? t('testAssistant.youTesting') : t('testAssistant.assistant')}
              actions={
                m.role === 'assistant' && !m.isError && !m.isStreaming ? (
                  <Button
                    size="sm"
                    variant="ghost"
                    className="h-6 px-1.5 text-[11px]"
                    onClick={() => void copy(m.content)}
                  >
                    <Copy aria-hidden className="h-3 w-3" /> {t('testAssistant.copy')}
                  </Button>
                ) : undefined
              }
            />
          ))}
          {chat.pending && !last?.isStreaming && <TypingIndicator />}
        </div>
        <ChatComposer
          label={t('testAssistant.messageToTestThe')}
          placeholder={t('testAssistant.askWhatACandidate')}
          value={text}
          onChange={setText}
          onSend={send}
          canSend={canSend}
          maxLength={CHAT_MAX_MESSAGE_CHARS}
        />
        <div className="flex justify-end">
          <Button size="sm" variant="ghost" disabled={chat.messages.length === 0} onClick={chat.reset}>
            <RotateCcw aria-hidden className="h-3.5 w-3.5" /> {t('testAssistant.startOver')}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
