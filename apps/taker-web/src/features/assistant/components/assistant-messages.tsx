import { Button } from '@exam/ui/button';
import { ChatMessage, TypingIndicator, type ChatMessageView } from '@exam/ui/chat-message';
import { Check, Copy, ShieldAlert } from 'lucide-react';
import { useEffect, useRef, useState, type ClipboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isInAssistantReply } from '../../../lib/copy-origin.ts';
import { copyReply } from '../lib/copy-reply.ts';

export type ListedMessage = ChatMessageView & { key: string; withheldNotice?: string | undefined };

const COPIED_FEEDBACK_MS = 2000;

function CopyButton({ text }: { text: string }) {
  const { t } = useTranslation('assistant');
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async (button: HTMLButtonElement) => {
    if (await copyReply(text, button)) setCopied(true);
    else window.alert(t('copyFailed'));
  };
  return (
    <Button
      size="sm"
      variant="ghost"
      className="h-6 px-1.5 text-[11px]"
      onClick={(event) => void copy(event.currentTarget)}
    >
      {copied ? <Check aria-hidden className="h-3 w-3" /> : <Copy aria-hidden className="h-3 w-3" />}
      {t(copied ? 'copied' : 'copy')}
    </Button>
  );
}

type Props = {
  messages: ListedMessage[];
  /** Waiting for the first words of a reply. */
  typing: boolean;
  /** The reply's stream was cut and the message is being sent again. */
  reconnecting?: boolean;
  /** The exam's copyLLMResponse setting. Off: replies cannot be selected or copied. */
  canCopy: boolean;
};

/** The conversation, newest at the bottom, kept scrolled to the end as replies stream in. */
export function AssistantMessages({ messages, typing, reconnecting = false, canCopy }: Props) {
  const { t } = useTranslation('assistant');
  const listRef = useRef<HTMLDivElement>(null);
  const last = messages.at(-1);
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages.length, last?.content, typing]);

  // A copy from a reply is refused (its target, or either end of the selection, lies in one); the
  // candidate's own messages stay copyable.
  const refuseReplyCopy = (event: ClipboardEvent<HTMLDivElement>) => {
    if (canCopy) return;
    const selection = window.getSelection();
    if ([event.target, selection?.anchorNode, selection?.focusNode].some(isInAssistantReply)) event.preventDefault();
  };

  return (
    <div
      ref={listRef}
      role="log"
      aria-label={t('conversation')}
      aria-live="polite"
      className="flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto p-3"
      onCopy={refuseReplyCopy}
      onCut={refuseReplyCopy}
    >
      {messages.map((message) => (
        <ChatMessage
          key={message.key}
          message={message}
          selectable={message.role === 'user' || canCopy}
          actions={
            message.withheldNotice ? (
              <p role="note" className="flex items-center gap-1 text-xs font-medium text-amber-800">
                <ShieldAlert aria-hidden className="h-3.5 w-3.5" /> {message.withheldNotice}
              </p>
            ) : canCopy &&
              message.role === 'assistant' &&
              !message.isError &&
              !message.isStreaming &&
              message.content ? (
              <CopyButton text={message.content} />
            ) : undefined
          }
        />
      ))}
      {reconnecting && (
        <p role="status" className="text-xs text-muted">
          {t('reconnecting')}
        </p>
      )}
      {typing && !reconnecting && <TypingIndicator />}
    </div>
  );
}
