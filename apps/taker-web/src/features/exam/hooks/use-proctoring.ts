import type { ProctorEvent } from '@exam/domain/attempt';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** Focus polled every 100 ms, fullscreen entered after ~300 ms, pause past 100 warnings (docs/product.md#proctoring-and-integrity). */
export const FOCUS_POLL_MS = 100;
export const FULLSCREEN_DELAY_MS = 300;
export const PAUSE_AFTER_WARNINGS = 100;

type Options = {
  enabled: boolean;
  fullScreenRequested: boolean;
  onEvent: (event: ProctorEvent) => void;
};

/** Focus inside the coding workspace's frame is part of the exam, not a loss. */
function isWorkspaceFrameFocused(): boolean {
  const active = document.activeElement;
  return active instanceof HTMLIFrameElement && active.closest('[data-workspace-frame]') !== null;
}

function isAway(): boolean {
  if (document.visibilityState === 'hidden') return true;
  return !document.hasFocus() && !isWorkspaceFrameFocused();
}

export async function enterFullscreen(): Promise<void> {
  if (document.fullscreenElement || !document.documentElement.requestFullscreen) return;
  try {
    await document.documentElement.requestFullscreen();
  } catch (error) {
    console.warn('Fullscreen request was refused', error);
  }
}

export async function exitFullscreen(): Promise<void> {
  if (!document.fullscreenElement || !document.exitFullscreen) return;
  try {
    await document.exitFullscreen();
  } catch (error) {
    console.warn('Could not leave fullscreen', error);
  }
}

/** Polls focus (and follows tab visibility): each move away from the page is one warning. */
function useFocusWatch(enabled: boolean, warn: (event: ProctorEvent) => void) {
  const awayRef = useRef(false);
  useEffect(() => {
    if (!enabled) return;
    const check = () => {
      const away = isAway();
      if (away && !awayRef.current)
        warn({ type: 'focus-lost', detail: document.visibilityState === 'hidden' ? 'tab hidden' : 'window blurred' });
      awayRef.current = away;
    };
    const timer = setInterval(check, FOCUS_POLL_MS);
    document.addEventListener('visibilitychange', check);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', check);
    };
  }, [enabled, warn]);
}

/** Whether this browser can put the page in full screen at all (some phones cannot). */
function canFullscreen(): boolean {
  return typeof document.documentElement.requestFullscreen === 'function' && document.fullscreenEnabled !== false;
}

/** Escape is blocked while full screen is requested, except to cancel a confirmation (an alert dialog). */
function blockEscape(event: KeyboardEvent) {
  if (event.key !== 'Escape') return;
  if (event.target instanceof Element && event.target.closest('[role="alertdialog"]')) return;
  event.preventDefault();
  event.stopPropagation();
}

type FullscreenHandlers = {
  /** The page went into full screen (by the first try or the candidate's button). */
  onEnter: () => void;
  /** The page left full screen it was in. */
  onExit: () => void;
  /** The first try found no full screen: the browser refused it (no click since a reload) or the page is not in it. */
  onNotEntered: () => void;
};

/**
 * Tries full screen shortly after the page opens; the click that opened the exam usually lets it through.
 * After a reload there is no click, the browser refuses, and the candidate is asked (onNotEntered).
 */
function useFullscreenWatch(active: boolean, handlersRef: RefObject<FullscreenHandlers>) {
  useEffect(() => {
    if (!active) return;
    window.addEventListener('keydown', blockEscape, true);
    return () => window.removeEventListener('keydown', blockEscape, true);
  }, [active]);
  useEffect(() => {
    if (!active || !canFullscreen()) return;
    let inFullscreen = Boolean(document.fullscreenElement);
    // Only a page that is not in full screen when the exam opens asks for it; one already there (the Start
    // click) must not re-enter on its own after the candidate left it in the meantime.
    const timer = inFullscreen
      ? undefined
      : setTimeout(() => {
          void enterFullscreen().then(() => {
            if (!document.fullscreenElement) handlersRef.current.onNotEntered();
          });
        }, FULLSCREEN_DELAY_MS);
    const onChange = () => {
      if (document.fullscreenElement) {
        inFullscreen = true;
        handlersRef.current.onEnter();
      } else if (inFullscreen) {
        inFullscreen = false;
        handlersRef.current.onExit();
      }
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('fullscreenchange', onChange);
    };
  }, [active, handlersRef]);
}

/**
 * Why the full-screen prompt is up: 'enter' when the page is not in full screen yet (after a reload),
 * 'return' after the candidate left it (a warning was counted).
 */
export type FullscreenPrompt = 'enter' | 'return';

export function useProctoring({ enabled, fullScreenRequested, onEvent }: Options) {
  const [warnings, setWarnings] = useState(0);
  const [attention, setAttention] = useState(false);
  const [fullscreenPrompt, setFullscreenPrompt] = useState<FullscreenPrompt | null>(null);
  const [fullscreenRefused, setFullscreenRefused] = useState(false);
  const suspendedRef = useRef(false);
  const eventRef = useRef(onEvent);
  useEffect(() => {
    eventRef.current = onEvent;
  }, [onEvent]);

  const warn = useCallback((event: ProctorEvent) => {
    if (suspendedRef.current) return;
    eventRef.current(event);
    setWarnings((n) => n + 1);
    setAttention(true);
  }, []);

  // Leaving full screen counts like a focus loss (docs/product.md#proctoring-and-integrity) and blocks the
  // page until the candidate goes back with the prompt's button.
  const fullscreenHandlers = useRef<FullscreenHandlers>({
    onEnter: () => {
      eventRef.current({ type: 'fullscreen-enter' });
      setFullscreenPrompt(null);
      setFullscreenRefused(false);
    },
    onExit: () => {
      if (suspendedRef.current) return;
      warn({ type: 'fullscreen-exit' });
      setFullscreenPrompt('return');
    },
    onNotEntered: () => {
      if (!suspendedRef.current) setFullscreenPrompt((current) => current ?? 'enter');
    },
  });

  useFocusWatch(enabled, warn);
  useFullscreenWatch(enabled && fullScreenRequested, fullscreenHandlers);

  const resume = useCallback(() => {
    eventRef.current({ type: 'focus-gained' });
    setAttention(false);
    if (fullScreenRequested) void enterFullscreen();
  }, [fullScreenRequested]);

  /** The prompt's button: requestFullscreen runs inside this click, the user gesture browsers require. */
  const returnToFullscreen = useCallback(() => {
    setAttention(false);
    void enterFullscreen().then(() => setFullscreenRefused(!document.fullscreenElement));
  }, []);

  /** Submitting leaves fullscreen on purpose; that must not count as a warning. */
  const suspend = useCallback(() => {
    suspendedRef.current = true;
    setAttention(false);
    setFullscreenPrompt(null);
  }, []);

  const active = enabled && fullScreenRequested;
  return {
    warnings,
    attention: enabled && attention,
    paused: enabled && warnings > PAUSE_AFTER_WARNINGS,
    fullscreenPrompt: active ? fullscreenPrompt : null,
    fullscreenRefused,
    resume,
    returnToFullscreen,
    suspend,
  };
}
