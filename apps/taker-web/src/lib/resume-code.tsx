import { formatResumeCode } from '@exam/domain/attempt-binding';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { findResumeCode } from './resume-store.ts';
import { useTranslation } from 'react-i18next';

/** The exam menu's entry: a button that shows the candidate their resume code. */
export function ResumeCodeMenu({ attemptId }: { attemptId: string }) {
  const { t } = useTranslation('common');
  const [code] = useState(() => findResumeCode(attemptId));
  const [open, setOpen] = useState(false);
  if (!code) return null;
  return (
    <div className="relative">
      <button
        type="button"
        className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm text-muted hover:bg-canvas"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
      >
        <KeyRound aria-hidden className="h-4 w-4" /> {t('resumeCode.button')}
      </button>
      {open && (
        <div
          role="dialog"
          aria-label={t('resumeCode.dialog')}
          className="absolute right-0 z-20 mt-1 w-64 rounded-md border border-line bg-surface p-3 text-left shadow-lg"
        >
          <p className="font-mono text-lg font-semibold tracking-widest text-ink" data-testid="resume-code">
            {formatResumeCode(code)}
          </p>
          <p className="mt-1 text-xs text-muted">{t('resumeCode.explain')}</p>
        </div>
      )}
    </div>
  );
}

/** The completion page's note of the code. */
export function ResumeCodeNote({ attemptId }: { attemptId: string }) {
  const { t } = useTranslation('common');
  const [code] = useState(() => findResumeCode(attemptId));
  if (!code) return null;
  return (
    <p className="mt-4 text-sm text-muted">
      {t('resumeCode.note')}{' '}
      <span className="font-mono font-semibold tracking-widest text-ink" data-testid="resume-code">
        {formatResumeCode(code)}
      </span>
    </p>
  );
}
