import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { CheckCircle2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { formatNumber } from '../../../i18n/format.ts';
import { translateServerMessage } from '../../../i18n/server-messages.ts';
import type { ResultsState } from '../../../lib/navigation-state.ts';
import { ResumeCodeNote } from '../../../lib/resume-code.tsx';
import { ProcessReceipt } from './process-receipt.tsx';

/**
 * /taker/results: the completion page. After a practice exam it says so, links the review (open at once for
 * practice) and shows `tryAgain`, the page's way to start the next attempt.
 */
export function CompletionCard({ result, tryAgain }: { result: ResultsState | undefined; tryAgain?: ReactNode }) {
  const { t } = useTranslation(['results', 'common']);
  const navigate = useNavigate();
  return (
    <Card className="w-full max-w-lg p-8 text-center">
      <CheckCircle2 aria-hidden className="mx-auto h-12 w-12 text-success" />
      <h1 className="mt-4 text-2xl font-semibold text-ink">{t('completion.title')}</h1>
      {result?.notice && (
        <p
          role="status"
          className="mt-3 rounded-lg bg-yellow-50 p-3 font-medium text-yellow-900"
          data-testid="completion-notice"
        >
          {translateServerMessage(result.notice)}
        </p>
      )}
      <p className="mt-2 text-ink">{t('completion.thanks')}</p>
      <p className="mt-1 text-sm text-muted">{t('completion.submitted')}</p>
      {result && (
        <p className="mt-4 text-base font-medium text-ink" data-testid="answered-summary">
          {t('completion.answered', { answered: formatNumber(result.answered), total: formatNumber(result.total) })}
        </p>
      )}
      <p className="mt-4 text-sm text-muted">
        {result?.practice ? t('completion.practice') : t('completion.forInstructor')}
      </p>
      {result?.attemptId && <ResumeCodeNote attemptId={result.attemptId} />}
      {result?.attemptId && <ProcessReceipt attemptId={result.attemptId} />}
      {result?.attemptId && (
        <p className="mt-4">
          <Link
            className="font-medium text-brand-600 underline"
            to={result.practice ? paths.review(result.attemptId) : paths.result(result.attemptId)}
          >
            {result.practice ? t('completion.review') : t('completion.viewResult')}
          </Link>
        </p>
      )}
      {result?.practice && result.attemptId && tryAgain}
      <Button className="mt-6" onClick={() => void navigate(paths.home)}>
        {t('common:returnHome')}
      </Button>
    </Card>
  );
}
