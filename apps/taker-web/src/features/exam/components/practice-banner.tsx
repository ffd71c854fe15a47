import { GraduationCap } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** Above the questions of a practice exam: the candidate knows their answers are checked and do not count. */
export function PracticeBanner() {
  const { t } = useTranslation('exam');
  return (
    <p
      role="note"
      className="flex items-center gap-2 border-b border-line bg-brand-50 px-4 py-2 text-sm text-ink"
      data-testid="practice-banner"
    >
      <GraduationCap aria-hidden className="h-4 w-4 shrink-0 text-brand-600" />
      {t('practice.banner')}
    </p>
  );
}
