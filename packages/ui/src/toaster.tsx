import type { ComponentProps } from 'react';
import { Toaster as SonnerToaster } from 'sonner';
import { useEdgeClearOfFocus, type Edge } from './clear-of-focus.tsx';

type Side = 'left' | 'center' | 'right';
type Offsets = { top: number; bottom: number; left: number; right: number };

type Placement = {
  /** The edge toasts prefer; they move to the other one while the focused field is under them. */
  edge?: Edge;
  side?: Side;
  /** Distances from the viewport's edges: top clears the apps' 56px header, bottom any sticky action bar. */
  offset?: Partial<Offsets>;
  mobileOffset?: ComponentProps<typeof SonnerToaster>['mobileOffset'];
};

/** How deep a toast reaches from its edge, past the offset (sonner's toast with two lines and its gap). */
export const TOAST_DEPTH = 96;
const DEFAULT_OFFSET: Offsets = { top: 72, bottom: 24, left: 24, right: 24 };

/**
 * The spec shows one toast at a time (section 9), so toasts never stack. Where they sit is each app's choice,
 * away from its primary actions; and never over the field that has the focus: a toast that would cover it moves
 * to the other edge of the viewport (clear-of-focus.tsx).
 */
export function Toaster({ edge = 'top', side = 'right', offset, mobileOffset }: Placement) {
  const offsets = { ...DEFAULT_OFFSET, ...offset };
  const band = (edge === 'top' ? offsets.top : offsets.bottom) + TOAST_DEPTH;
  const shown = useEdgeClearOfFocus(edge, band);
  return (
    <SonnerToaster
      visibleToasts={1}
      position={`${shown}-${side}`}
      offset={offsets}
      {...(mobileOffset ? { mobileOffset } : {})}
      richColors
      closeButton
    />
  );
}

export { toast } from 'sonner';
