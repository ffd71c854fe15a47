import { SendHorizontal } from 'lucide-react';
import { useId, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button.tsx';
import { cn } from './lib/cn.ts';

/** Spec section 9: the chat textarea grows with its text up to 120 px, then scrolls. */
export const CHAT_INPUT_MAX_HEIGHT_PX = 120;

type ChatComposerProps = {
  value: string;
  onChange: (value: string) => void;
  /** Called by Enter and the send button, only when `canSend`. */
  onSend: () => void;
  canSend: boolean;
  disabled?: boolean;
  label?: string;
  placeholder?: string;
  maxLength?: number;
  /** Shown above the text area (attached files). */
  top?: ReactNode;
  /** Shown left of the send button (an attach button). */
  tools?: ReactNode;
  /** The keyboard hint under the input; on by default, so the placeholder can stay short in a narrow column. */
  showHint?: boolean;
};

/** The chat input (docs/product.md#pages-and-messages): Enter sends, Shift+Enter adds a line. */
export function ChatComposer({
  value,
  onChange,
  onSend,
  canSend,
  disabled,
  label,
  placeholder,
  maxLength,
  top,
  tools,
  showHint = true,
}: ChatComposerProps) {
  const { t } = useTranslation('ui');
  const ref = useRef<HTMLTextAreaElement>(null);
  const hintId = useId();

  useLayoutEffect(() => {
    const area = ref.current;
    if (!area) return;
    area.style.height = 'auto';
    area.style.height = `${Math.min(area.scrollHeight, CHAT_INPUT_MAX_HEIGHT_PX)}px`;
    area.style.overflowY = area.scrollHeight > CHAT_INPUT_MAX_HEIGHT_PX ? 'auto' : 'hidden';
  }, [value]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // A key that confirms an IME composition is not a send.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (canSend) onSend();
  };

  return (
    <div className="flex flex-col gap-2">
      {top}
      <div
        className={cn(
          'flex items-end gap-1.5 rounded-xl border border-line bg-surface p-1.5 focus-within:border-brand-500 focus-within:ring-2 focus-within:ring-brand-500',
          disabled && 'opacity-60',
        )}
      >
        {tools}
        <textarea
          ref={ref}
          rows={1}
          aria-label={label ?? t('chat.messageLabel')}
          aria-describedby={showHint ? hintId : undefined}
          placeholder={placeholder}
          value={value}
          maxLength={maxLength}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
          style={{ maxHeight: CHAT_INPUT_MAX_HEIGHT_PX }}
          className="min-h-9 min-w-0 flex-1 resize-none bg-transparent px-2 py-2 text-sm text-ink outline-none placeholder:text-muted disabled:cursor-not-allowed"
        />
        <Button size="icon" aria-label={t('chat.send')} disabled={!canSend} onClick={onSend}>
          <SendHorizontal aria-hidden className="h-4 w-4" />
        </Button>
      </div>
      {showHint && (
        <p id={hintId} className="px-1 text-[11px] leading-tight text-muted">
          {t('chat.hint')}
        </p>
      )}
    </div>
  );
}
