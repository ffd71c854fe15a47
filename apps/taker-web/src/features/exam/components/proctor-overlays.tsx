import { Button } from '@exam/ui/button';
import { Dialog } from '@exam/ui/dialog';
import { PauseCircle } from 'lucide-react';
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
