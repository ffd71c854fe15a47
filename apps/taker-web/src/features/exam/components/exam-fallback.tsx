import { Button } from '@exam/ui/button';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useTranslation } from 'react-i18next';
import { translateServerMessage } from '../../../i18n/server-messages.ts';

export function ExamLoading() {
  const { t } = useTranslation('exam');
  return (
    <main className="flex min-h-full items-center justify-center">
      <p role="status" className="text-muted">
        {t('loading')}
      </p>
    </main>
  );
}

/** The exam page's fallback screens: 'Exam not found or unavailable' and 'This exam has no questions'. */
export function ExamFallback({ message }: { message: string }) {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-4 px-6 text-center">
      <h1 className="text-xl font-semibold text-ink">{message}</h1>
      <Button onClick={() => void navigate(paths.start)}>{t('backToStart')}</Button>
    </main>
  );
}

/** A preview link without a valid preview token: said plainly, with nothing of the exam on the page. */
export function PreviewRefused({ message }: { message: string }) {
  const { t } = useTranslation('exam');
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-3 px-6 text-center">
      <h1 className="text-xl font-semibold text-ink">{t('fallback.previewUnavailable')}</h1>
      <p role="alert" className="max-w-md text-sm text-muted">
        {translateServerMessage(message)}
      </p>
    </main>
  );
}
