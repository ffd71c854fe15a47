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

/** Enters full screen shortly after the page opens; leaving it is a warning, entering it is recorded. */
function useFullscreenWatch(
  active: boolean,
  warn: (event: ProctorEvent) => void,
  eventRef: RefObject<(event: ProctorEvent) => void>,
) {
  const inFullscreenRef = useRef(false);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => void enterFullscreen(), FULLSCREEN_DELAY_MS);
    const onChange = () => {
      if (document.fullscreenElement) {
        inFullscreenRef.current = true;
        eventRef.current({ type: 'fullscreen-enter' });
      } else if (inFullscreenRef.current) {
        inFullscreenRef.current = false;
        warn({ type: 'fullscreen-exit' });
      }
    };
    // Escape is blocked while fullscreen is requested (the browser may still leave fullscreen).
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
    };
    document.addEventListener('fullscreenchange', onChange);
    window.addEventListener('keydown', onKeyDown, true);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('fullscreenchange', onChange);
      window.removeEventListener('keydown', onKeyDown, true);
    };
  }, [active, warn, eventRef]);
}

export function useProctoring({ enabled, fullScreenRequested, onEvent }: Options) {
  const [warnings, setWarnings] = useState(0);
  const [attention, setAttention] = useState(false);
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

  useFocusWatch(enabled, warn);
  useFullscreenWatch(enabled && fullScreenRequested, warn, eventRef);

  const resume = useCallback(() => {
    eventRef.current({ type: 'focus-gained' });
    setAttention(false);
    if (fullScreenRequested) void enterFullscreen();
  }, [fullScreenRequested]);

  /** Submitting leaves fullscreen on purpose; that must not count as a warning. */
  const suspend = useCallback(() => {
    suspendedRef.current = true;
    setAttention(false);
  }, []);

  return {
    warnings,
    attention: enabled && attention,
    paused: enabled && warnings > PAUSE_AFTER_WARNINGS,
    resume,
    suspend,
  };
}
