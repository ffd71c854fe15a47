import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SaveStatusIndicator } from './save-status.tsx';

const announcement = () => screen.getByTestId('save-announcement').textContent;

describe('SaveStatusIndicator', () => {
  it('shows every autosave step but announces none of them', () => {
    const { rerender } = render(<SaveStatusIndicator status="saved" />);
    for (const status of ['saving', 'saved', 'saving', 'saved'] as const) {
      rerender(<SaveStatusIndicator status={status} />);
      expect(screen.getByTestId('save-status')).toHaveTextContent(status === 'saved' ? 'Saved' : 'Saving...');
      expect(announcement()).toBe('');
    }
    // The visible text is not a live region of its own.
    expect(screen.getByTestId('save-status')).not.toHaveAttribute('aria-live');
  });

  it('announces going offline once, and being back once everything is saved', () => {
    const { rerender } = render(<SaveStatusIndicator status="saving" />);
    rerender(<SaveStatusIndicator status="offline" />);
    expect(screen.getByTestId('save-status')).toHaveTextContent('Offline — answers are kept on this device');
    expect(screen.getByRole('status')).toHaveTextContent(/^You are offline\./);
    rerender(<SaveStatusIndicator status="saving" />);
    expect(announcement()).toMatch(/^You are offline\./);
    rerender(<SaveStatusIndicator status="saved" />);
    expect(announcement()).toBe('Back online. All your answers are saved.');
    // Later ordinary saves leave the last announcement alone.
    rerender(<SaveStatusIndicator status="saving" />);
    rerender(<SaveStatusIndicator status="saved" />);
    expect(announcement()).toBe('Back online. All your answers are saved.');
  });
});
