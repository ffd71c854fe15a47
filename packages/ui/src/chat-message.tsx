import { AlertTriangle, Bot, Paperclip, User } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from './lib/cn.ts';
import { RichText } from './rich-text.tsx';

const timeFormats = new Map<string, Intl.DateTimeFormat>();
/** Hours and minutes in the reader's language, one formatter per language. */
function formatTime(time: Date, language: string): string {
  let format = timeFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    timeFormats.set(language, format);
  }
  return format.format(time);
}

export type ChatMessageView = {
  role: 'user' | 'assistant';
  content: string;
  /** ISO time; the greeting has none. */
  createdAt?: string | undefined;
  isError?: boolean | undefined;
  /** The reply is still arriving. */
  isStreaming?: boolean | undefined;
  files?: Array<{ name: string }> | undefined;
};

type ChatMessageProps = {
  message: ChatMessageView;
  /** Who is speaking, as shown above the text ('You', 'Assistant'). */
  author?: string;
  /** False makes an assistant reply unselectable (the exam does not allow copying replies). */
  selectable?: boolean;
  /** Controls under the reply, such as a Copy button. */
  actions?: ReactNode;
};

/**
 * One chat bubble (at most 85% of the panel wide, docs/product.md#pages-and-messages). The user's own text is shown
 * as typed; assistant replies are markdown; an error reply is styled as one.
 */
export function ChatMessage({ message, author, selectable = true, actions }: ChatMessageProps) {
  const { t, i18n } = useTranslation('ui');
  const mine = message.role === 'user';
  const time = message.createdAt ? new Date(message.createdAt) : undefined;
  const name = author ?? t(mine ? 'chat.you' : 'chat.assistant');
  return (
    <div
      className={cn('flex', mine ? 'justify-end' : 'justify-start')}
      data-testid="chat-message"
      data-role={message.role}
      data-error={message.isError ? 'true' : undefined}
    >
      <div
        aria-label={t('chat.said', { name })}
        role="group"
        className={cn(
          'max-w-[85%] min-w-0 rounded-2xl px-3 py-2 text-sm shadow-sm',
          mine
            ? 'rounded-br-sm bg-brand-600 text-white'
            : message.isError
              ? 'rounded-bl-sm border border-red-200 bg-red-50 text-red-800'
              : 'rounded-bl-sm border border-line bg-surface text-ink',
          !selectable && 'select-none',
        )}
      >
        <p className={cn('mb-1 flex items-center gap-1 text-[11px]', mine ? 'text-white/80' : 'text-muted')}>
          {mine ? (
            <User aria-hidden className="h-3 w-3" />
          ) : message.isError ? (
            <AlertTriangle aria-hidden className="h-3 w-3 text-danger" />
          ) : (
            <Bot aria-hidden className="h-3 w-3" />
          )}
          <span>{name}</span>
          {time && !Number.isNaN(time.getTime()) && (
            <time dateTime={message.createdAt} className="ml-auto pl-2 tabular-nums">
              {formatTime(time, i18n.language || 'en')}
            </time>
          )}
        </p>
        {mine ? (
          message.content && <p className="whitespace-pre-wrap break-words">{message.content}</p>
        ) : (
          <RichText className="text-sm leading-relaxed">{message.content}</RichText>
        )}
        {message.isStreaming && (
          <span aria-hidden className="ml-0.5 inline-block h-3 w-1.5 animate-pulse bg-current align-middle" />
        )}
        {message.files && message.files.length > 0 && (
          <ul aria-label={t('chat.attachedFiles')} className="mt-1.5 flex flex-wrap gap-1">
            {message.files.map((file, i) => (
              <li
                key={`${file.name}-${i}`}
                className={cn(
                  'flex items-center gap-1 rounded-md px-1.5 py-0.5 text-[11px]',
                  mine ? 'bg-white/15' : 'bg-canvas',
                )}
              >
                <Paperclip aria-hidden className="h-3 w-3" /> {file.name}
              </li>
            ))}
          </ul>
        )}
        {actions && <div className="mt-1.5 flex justify-end gap-1">{actions}</div>}
      </div>
    </div>
  );
}

/** Three bouncing dots while the assistant has not started answering. */
export function TypingIndicator({ label }: { label?: string }) {
  const { t } = useTranslation('ui');
  return (
    <div className="flex justify-start">
      <div
        role="status"
        aria-label={label ?? t('chat.typing')}
        className="flex items-center gap-1 rounded-2xl rounded-bl-sm border border-line bg-surface px-3 py-3 shadow-sm"
      >
        {[0, 150, 300].map((delay) => (
          <span
            key={delay}
            aria-hidden
            className="h-1.5 w-1.5 animate-bounce rounded-full bg-muted"
            style={{ animationDelay: `${delay}ms` }}
          />
        ))}
      </div>
    </div>
  );
}
