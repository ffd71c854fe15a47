import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { edgeClearOf, useEdgeClearOfFocus } from './clear-of-focus.tsx';

describe('edgeClearOf', () => {
  const field = (top: number, bottom: number) => ({ top, bottom });
  it('keeps the preferred edge while the focused field is clear of its band', () => {
    expect(edgeClearOf(field(300, 340), 'bottom', 176, 800)).toBe('bottom');
    expect(edgeClearOf(field(300, 340), 'top', 168, 800)).toBe('top');
    expect(edgeClearOf(null, 'bottom', 176, 800)).toBe('bottom');
  });
  it('moves to the other edge when the field reaches into the preferred band', () => {
    expect(edgeClearOf(field(700, 740), 'bottom', 176, 800)).toBe('top');
    expect(edgeClearOf(field(100, 140), 'top', 168, 800)).toBe('bottom');
  });
  it('stays put when the field fills both bands (nowhere is clearer)', () => {
    expect(edgeClearOf(field(50, 780), 'bottom', 176, 800)).toBe('bottom');
  });
});

function Probe() {
  return (
    <>
      <output data-testid="edge">{useEdgeClearOfFocus('bottom', 176)}</output>
      <input aria-label="low field" />
      <button type="button">button</button>
    </>
  );
}

describe('useEdgeClearOfFocus', () => {
  it('follows the focused typing field, not other controls', () => {
    window.innerHeight = 800;
    render(<Probe />);
    const low = screen.getByLabelText('low field');
    low.getBoundingClientRect = () => ({ top: 720, bottom: 760 }) as DOMRect;
    const button = screen.getByRole('button');
    button.getBoundingClientRect = () => ({ top: 720, bottom: 760 }) as DOMRect;
    expect(screen.getByTestId('edge')).toHaveTextContent('bottom');
    act(() => low.focus());
    expect(screen.getByTestId('edge')).toHaveTextContent('top');
    act(() => button.focus());
    expect(screen.getByTestId('edge')).toHaveTextContent('bottom');
  });
});
