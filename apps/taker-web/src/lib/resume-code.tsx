import { formatResumeCode } from '@exam/domain/candidate-text';
import { KeyRound } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { findNextAttemptCode, findResumeCode } from './resume-store.ts';
import { useTranslation } from 'react-i18next';

/**
 * Keyboard Lock (https://developer.mozilla.org/docs/Web/API/Keyboard/lock, Chromium only): in full screen the
 * browser takes Escape to leave full screen; locked, a short Escape reaches the page (holding it still leaves).
 */
type LockableKeyboard = { lock?: (codes?: string[]) => Promise<void>; unlock?: () => void };
const keyboardOf = () => (navigator as Navigator & { keyboard?: LockableKeyboard }).keyboard;

/**
 * While the popover is open in full screen, Escape closes it instead of leaving full screen, where the browser
 * allows it (keyboardOf); anywhere else Escape closes it as usual.
 */
function useEscapeInFullscreen(open: boolean) {
  useEffect(() => {
    if (!open || !document.fullscreenElement) return;
    const keyboard = keyboardOf();
    keyboard?.lock?.(['Escape']).catch(() => undefined);
    return () => keyboard?.unlock?.();
  }, [open]);
}

/**
 * The exam menu's entry: a button that shows the candidate their resume code. The popover closes with Escape,
 * a click elsewhere, and whenever the focus leaves it (the submit dialog opening takes the focus, so it never
 * stays behind that dialog).
 */
export function ResumeCodeMenu({ attemptId }: { attemptId: string }) {
  const { t } = useTranslation('common');
  const [code] = useState(() => findResumeCode(attemptId));
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEscapeInFullscreen(open);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      button.current?.focus();
    };
    const outside = (event: Event) => {
      if (event.target instanceof Node && !root.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('pointerdown', outside, true);
    document.addEventListener('focusin', outside, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', outside, true);
      document.removeEventListener('focusin', outside, true);
    };
  }, [open]);
  if (!code) return null;
  return (
    <div className="relative" ref={root}>
      <button
        ref={button}
        type="button"
        className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm text-muted hover:bg-canvas"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
      >
        <KeyRound aria-hidden className="h-4 w-4" /> {t('resumeCode.button')}
      </button>
      {open && (
        <div
          role="dialog"
          aria-label={t('resumeCode.dialog')}
          className="absolute right-0 z-20 mt-1 w-64 rounded-md border border-line bg-surface p-3 text-left shadow-lg"
        >
          <p className="font-mono text-lg font-semibold tracking-widest text-ink" data-testid="resume-code">
            {formatResumeCode(code)}
          </p>
          <p className="mt-1 text-xs text-muted">{t('resumeCode.explain')}</p>
        </div>
      )}
    </div>
  );
}

/** The completion page's note of the code, only while it can still begin another attempt. */
export function ResumeCodeNote({ attemptId }: { attemptId: string }) {
  const { t } = useTranslation('common');
  const [code] = useState(() => findNextAttemptCode(attemptId));
  if (!code) return null;
  return (
    <p className="mt-4 text-sm text-muted">
      {t('resumeCode.note')}{' '}
      <span className="font-mono font-semibold tracking-widest text-ink" data-testid="resume-code">
        {formatResumeCode(code)}
      </span>
    </p>
  );
}
