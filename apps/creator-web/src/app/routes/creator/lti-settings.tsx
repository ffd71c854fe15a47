import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { PageHeader } from '@exam/ui/page-header';
import { PageSpinner } from '@exam/ui/spinner';
import { toast } from '@exam/ui/toaster';
import { useTranslation } from 'react-i18next';
import { useDeletePlatform, usePlatforms, useToolConfiguration } from '../../../features/lti/api/manage-lti.ts';
import { PlatformForm } from '../../../features/lti/components/platform-form.tsx';
import { ToolConfigurationCard } from '../../../features/lti/components/tool-configuration-card.tsx';
import { userMessageOf } from '../../../lib/api-client.ts';

/** The creator's LMS registrations (LTI 1.3) and the tool's own URLs to enter in the LMS. */
export function LtiSettingsRoute() {
  const { t } = useTranslation('lti');
  const tool = useToolConfiguration();
  const platforms = usePlatforms();
  const remove = useDeletePlatform();
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={t('settings.title')} description={t('settings.subtitle')} />
      {tool.data ? <ToolConfigurationCard configuration={tool.data} /> : <PageSpinner />}
      <Card className="p-6">
        <h2 className="text-lg font-semibold text-ink">{t('settings.platformsTitle')}</h2>
        {platforms.data?.length === 0 && <p className="mt-2 text-sm text-muted">{t('settings.noPlatforms')}</p>}
        <ul className="mt-3 flex flex-col gap-3" aria-label={t('settings.platformsTitle')}>
          {platforms.data?.map((platform) => (
            <li key={platform.id} className="flex items-start justify-between gap-4 border-t border-line pt-3">
              <div className="min-w-0 text-sm">
                <p className="font-medium text-ink">{platform.name}</p>
                <p className="break-all text-muted">
                  {platform.issuer} · {platform.clientId}
                </p>
                <p className="text-muted">{t('settings.deployments', { ids: platform.deploymentIds.join(', ') })}</p>
              </div>
              <Button
                variant="secondary"
                disabled={remove.isPending}
                onClick={() =>
                  remove.mutate(platform.id, {
                    onSuccess: () => toast.success(t('settings.removed')),
                    onError: (error) => toast.error(userMessageOf(error)),
                  })
                }
              >
                {t('settings.remove')}
              </Button>
            </li>
          ))}
        </ul>
      </Card>
      <PlatformForm />
    </div>
  );
}
