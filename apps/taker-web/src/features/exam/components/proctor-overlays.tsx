import { Button } from '@exam/ui/button';
import { Dialog } from '@exam/ui/dialog';
import { PauseCircle } from 'lucide-react';
import type { FullscreenPrompt as PromptReason } from '../hooks/use-proctoring.ts';
import { PASTE_BLOCKED_MESSAGE } from '../lib/paste-guard.ts';

export function AttentionDialog({ open, onResume }: { open: boolean; onResume: () => void }) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onResume()}
      title="Attention Required"
      description="You left the exam window. This has been recorded. Return to the exam to continue."
      footer={<Button onClick={onResume}>Resume Exam</Button>}
    />
  );
}

export const FullscreenMessages = {
  title: 'Full screen required',
  enter: 'This exam must be taken in full screen. Return to full screen to continue.',
  return: 'You left full screen. This has been recorded as a warning. Return to full screen to continue the exam.',
  refused:
    'Your browser did not switch to full screen. Press the button again; if it keeps failing, tell your instructor.',
  button: 'Return to full screen',
} as const;

/**
 * Blocks the exam while an exam that requires full screen is not in it: after the candidate left it, and
 * after a reload (browsers enter full screen only from a click, so the button is that click). Neither
 * Escape nor a click outside closes it.
 */
export function FullscreenPrompt({
  reason,
  refused,
  onReturn,
}: {
  reason: PromptReason;
  refused: boolean;
  onReturn: () => void;
}) {
  return (
    <Dialog
      open
      onOpenChange={() => undefined}
      title={FullscreenMessages.title}
      description={FullscreenMessages[reason]}
      footer={<Button onClick={onReturn}>{FullscreenMessages.button}</Button>}
    >
      {refused && (
        <p role="alert" className="text-sm text-danger">
          {FullscreenMessages.refused}
        </p>
      )}
    </Dialog>
  );
}

/** Past 100 warnings the Paused screen replaces the dialog (docs/product.md#proctoring-and-integrity). */
export function PausedScreen({ warnings, onResume }: { warnings: number; onResume: () => void }) {
  return (
    <div
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="paused-title"
      className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-3 bg-slate-900/90 p-6 text-center text-white"
    >
      <PauseCircle aria-hidden className="h-14 w-14" />
      <h2 id="paused-title" className="text-3xl font-semibold">
        Paused
      </h2>
      <p className="text-lg">Warning #{warnings}</p>
      <p className="max-w-md text-sm text-white/80">Excessive pausing may be reported to your instructor.</p>
      <Button className="mt-4" onClick={onResume}>
        Resume Exam
      </Button>
    </div>
  );
}

/** Shown 3 s at the bottom right. */
export function PasteNotice({ visible }: { visible: boolean }) {
  if (!visible) return null;
  return (
    <div
      role="status"
      className="fixed bottom-4 right-4 z-50 max-w-sm rounded-lg bg-danger px-4 py-3 text-sm font-medium text-white shadow-lg"
    >
      {PASTE_BLOCKED_MESSAGE}
    </div>
  );
}
