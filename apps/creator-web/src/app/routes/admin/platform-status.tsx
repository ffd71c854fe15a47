import { Button } from '@exam/ui/button';
import { PageHeader } from '@exam/ui/page-header';
import { PageSpinner } from '@exam/ui/spinner';
import { RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { usePlatformStatus } from '../../../features/admin/api/platform-status.ts';
import { PlatformStatusView } from '../../../features/admin/components/platform-status-view.tsx';
import { ApiError, userMessageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';

/**
 * The platform's status for its administrators (ADMIN_EMAILS, docs/product.md#platform-status): where the
 * operator's detail that creators never read (images, sockets, build scripts) is shown.
 */
export function PlatformStatusRoute() {
  const { t } = useTranslation('admin');
  const status = usePlatformStatus();
  const forbidden = status.error instanceof ApiError && status.error.status === 403;
  return (
    <div className="flex flex-col gap-2">
      <PageHeader
        title={t('status.title')}
        description={
          status.data ? t('status.checkedAt', { time: formatDateTime(status.data.checkedAt) }) : t('status.subtitle')
        }
        actions={
          !forbidden && (
            <Button variant="secondary" disabled={status.isFetching} onClick={() => void status.refetch()}>
              <RefreshCw aria-hidden className={status.isFetching ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} />
              {status.isFetching ? t('status.refreshing') : t('status.refresh')}
            </Button>
          )
        }
      />
      {status.error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          {forbidden ? t('status.forbidden') : t('status.failed', { message: userMessageOf(status.error) })}
        </p>
      ) : status.data ? (
        <PlatformStatusView status={status.data} />
      ) : (
        <PageSpinner />
      )}
    </div>
  );
}
