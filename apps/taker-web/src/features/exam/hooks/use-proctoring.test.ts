import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FOCUS_POLL_MS, useProctoring } from './use-proctoring.ts';

function loseAndRegainFocus(times: number) {
  const hasFocus = vi.spyOn(document, 'hasFocus');
  for (let i = 0; i < times; i += 1) {
    hasFocus.mockReturnValue(false);
    act(() => void vi.advanceTimersByTime(FOCUS_POLL_MS));
    hasFocus.mockReturnValue(true);
    act(() => void vi.advanceTimersByTime(FOCUS_POLL_MS));
  }
}

describe('useProctoring', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('counts one warning per focus loss and logs focus-lost', () => {
    const onEvent = vi.fn();
    const { result } = renderHook(() => useProctoring({ enabled: true, fullScreenRequested: false, onEvent }));
    loseAndRegainFocus(2);
    expect(result.current.warnings).toBe(2);
    expect(result.current.attention).toBe(true);
    expect(onEvent.mock.calls.map(([event]) => event.type)).toEqual(['focus-lost', 'focus-lost']);
    act(() => result.current.resume());
    expect(result.current.attention).toBe(false);
    expect(onEvent).toHaveBeenLastCalledWith({ type: 'focus-gained' });
  });

  it('shows the Paused state once warnings pass 100', () => {
    const { result } = renderHook(() =>
      useProctoring({ enabled: true, fullScreenRequested: false, onEvent: () => {} }),
    );
    loseAndRegainFocus(100);
    expect(result.current.paused).toBe(false);
    loseAndRegainFocus(1);
    expect(result.current.warnings).toBe(101);
    expect(result.current.paused).toBe(true);
  });

  it('blocks Escape only while fullscreen is requested', () => {
    const { rerender } = renderHook(
      (requested: boolean) => useProctoring({ enabled: true, fullScreenRequested: requested, onEvent: () => {} }),
      { initialProps: true },
    );
    const blocked = new KeyboardEvent('keydown', { key: 'Escape', cancelable: true });
    window.dispatchEvent(blocked);
    expect(blocked.defaultPrevented).toBe(true);
    rerender(false);
    const allowed = new KeyboardEvent('keydown', { key: 'Escape', cancelable: true });
    window.dispatchEvent(allowed);
    expect(allowed.defaultPrevented).toBe(false);
  });

  it('lets Escape through to an alert dialog (a confirmation to cancel) while fullscreen is requested', () => {
    renderHook(() => useProctoring({ enabled: true, fullScreenRequested: true, onEvent: () => {} }));
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'alertdialog');
    const button = dialog.appendChild(document.createElement('button'));
    document.body.append(dialog);
    const reached = vi.fn();
    document.addEventListener('keydown', reached);
    const escape = new KeyboardEvent('keydown', { key: 'Escape', cancelable: true, bubbles: true });
    button.dispatchEvent(escape);
    document.removeEventListener('keydown', reached);
    dialog.remove();
    expect(escape.defaultPrevented).toBe(false);
    expect(reached).toHaveBeenCalledTimes(1);
  });

  it('does nothing in a preview', () => {
    const onEvent = vi.fn();
    const { result } = renderHook(() => useProctoring({ enabled: false, fullScreenRequested: true, onEvent }));
    loseAndRegainFocus(3);
    expect(result.current.warnings).toBe(0);
    expect(onEvent).not.toHaveBeenCalled();
  });
});
