import { useEffect, useState } from 'react';

export type Edge = 'top' | 'bottom';

/** Fields a candidate or creator types into: a notice must never sit over one of these while it has the focus. */
const TYPING_TARGETS = 'input, textarea, select, [contenteditable]:not([contenteditable="false"]), [role="textbox"]';

/**
 * The edge of the viewport a notice `band` px deep should use to stay clear of the focused field: the preferred
 * edge, unless the field reaches into that edge's band and not into the other one's.
 */
export function edgeClearOf(
  field: Pick<DOMRect, 'top' | 'bottom'> | null,
  preferred: Edge,
  band: number,
  viewportHeight: number,
): Edge {
  if (!field) return preferred;
  const inTopBand = field.top < band;
  const inBottomBand = field.bottom > viewportHeight - band;
  if (preferred === 'top') return inTopBand && !inBottomBand ? 'bottom' : 'top';
  return inBottomBand && !inTopBand ? 'top' : 'bottom';
}

function focusedField(): Element | null {
  const active = document.activeElement;
  return active instanceof Element && active.matches(TYPING_TARGETS) ? active : null;
}

/**
 * Follows the focused field (focus moves, scrolling, resizing) and answers the edge for a notice of `band` px
 * (edgeClearOf), so toasts and the paste notice never cover what the person is typing into.
 */
export function useEdgeClearOfFocus(preferred: Edge, band: number): Edge {
  const [edge, setEdge] = useState<Edge>(preferred);
  useEffect(() => {
    const update = () =>
      setEdge(edgeClearOf(focusedField()?.getBoundingClientRect() ?? null, preferred, band, window.innerHeight));
    update();
    // focusout runs before the next focusin; a frame later the new field (or none) has the focus.
    const later = () => requestAnimationFrame(update);
    document.addEventListener('focusin', update);
    document.addEventListener('focusout', later);
    window.addEventListener('scroll', update, { capture: true, passive: true });
    window.addEventListener('resize', update);
    return () => {
      document.removeEventListener('focusin', update);
      document.removeEventListener('focusout', later);
      window.removeEventListener('scroll', update, { capture: true });
      window.removeEventListener('resize', update);
    };
  }, [preferred, band]);
  return edge;
}
