import { Button } from '@exam/ui/button';
import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';

/**
 * Move up, move down and remove, for one item of an ordered list of the exam form (a question, a section): the
 * accessible names say which item, since every item has the same three buttons.
 */
export function ReorderControls({
  index,
  count,
  onMove,
  onRemove,
  labels,
}: {
  index: number;
  count: number;
  onMove: (to: number) => void;
  onRemove: () => void;
  labels: { up: string; down: string; remove: string; removeText: string };
}) {
  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        aria-label={labels.up}
        disabled={index === 0}
        onClick={() => onMove(index - 1)}
      >
        <ArrowUp aria-hidden className="h-4 w-4" />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label={labels.down}
        disabled={index === count - 1}
        onClick={() => onMove(index + 1)}
      >
        <ArrowDown aria-hidden className="h-4 w-4" />
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className="text-danger hover:bg-red-50"
        aria-label={labels.remove}
        onClick={onRemove}
      >
        <Trash2 aria-hidden className="h-4 w-4" /> {labels.removeText}
      </Button>
    </>
  );
}
