import { cn } from '@exam/ui/lib/cn';
import { AlertTriangle } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/**
 * The disclosure of reliance calibration (docs/product.md#reliance-calibration), kept in view during the exam as
 * the briefing said it before Start: the assistant is sometimes wrong on purpose.
 */
export function PlantedErrorsNote({ className }: { className?: string }) {
  const { t } = useTranslation('common');
  return (
    <p
      role="note"
      aria-label={t('plantedErrors.label')}
      className={cn('flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-ink', className)}
      data-testid="planted-errors-disclosure"
    >
      <AlertTriangle aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-amber-700" />
      {t('plantedErrors.disclosure')}
    </p>
  );
}
