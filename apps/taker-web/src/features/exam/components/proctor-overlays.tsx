import { Button } from '@exam/ui/button';
import { Dialog } from '@exam/ui/dialog';
import { PauseCircle } from 'lucide-react';
import type { FullscreenPrompt as PromptReason } from '../hooks/use-proctoring.ts';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../i18n/format.ts';

export function AttentionDialog({ open, onResume }: { open: boolean; onResume: () => void }) {
  const { t } = useTranslation('exam');
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onResume()}
      title={t('attention.title')}
      description={t('attention.description')}
      footer={<Button onClick={onResume}>{t('attention.resume')}</Button>}
    />
  );
}

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
  const { t } = useTranslation('exam');
  return (
    <Dialog
      open
      onOpenChange={() => undefined}
      title={t('fullscreen.title')}
      description={t(`fullscreen.${reason}`)}
      footer={<Button onClick={onReturn}>{t('fullscreen.button')}</Button>}
    >
      {refused && (
        <p role="alert" className="text-sm text-danger">
          {t('fullscreen.refused')}
        </p>
      )}
    </Dialog>
  );
}

/** Past 100 warnings the Paused screen replaces the dialog (docs/product.md#proctoring-and-integrity). */
export function PausedScreen({ warnings, onResume }: { warnings: number; onResume: () => void }) {
  const { t } = useTranslation('exam');
  return (
    <div
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="paused-title"
      className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-3 bg-slate-900/90 p-6 text-center text-white"
    >
      <PauseCircle aria-hidden className="h-14 w-14" />
      <h2 id="paused-title" className="text-3xl font-semibold">
        {t('paused.title')}
      </h2>
      <p className="text-lg">{t('paused.warning', { number: formatNumber(warnings) })}</p>
      <p className="max-w-md text-sm text-white/80">{t('paused.note')}</p>
      <Button className="mt-4" onClick={onResume}>
        {t('paused.resume')}
      </Button>
    </div>
  );
}

/**
 * Shown 3 s at the top centre, below the header: away from the assistant's box (bottom right) and from the answer
 * fields, which start below the question navigation.
 */
export function PasteNotice({ visible }: { visible: boolean }) {
  const { t } = useTranslation('exam');
  if (!visible) return null;
  return (
    <div
      role="status"
      className="fixed left-1/2 top-[72px] z-50 w-max max-w-[min(24rem,calc(100vw-2rem))] -translate-x-1/2 rounded-lg bg-danger px-4 py-3 text-sm font-medium text-white shadow-lg"
    >
      {t('pasteBlocked')}
    </div>
  );
}
