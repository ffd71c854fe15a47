import type { LtiToolConfiguration } from '@exam/domain/lti';
import { Card } from '@exam/ui/card';
import { useTranslation } from 'react-i18next';

const ROWS = [
  ['loginUrl', 'settings.loginUrl'],
  ['launchUrl', 'settings.launchUrl'],
  ['deepLinkingUrl', 'settings.deepLinkingUrl'],
  ['jwksUrl', 'settings.jwksUrl'],
] as const;

/** The URLs an LMS administrator pastes into the LMS's LTI 1.3 tool registration. */
export function ToolConfigurationCard({ configuration }: { configuration: LtiToolConfiguration }) {
  const { t } = useTranslation('lti');
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-ink">{t('settings.toolTitle')}</h2>
      <p className="mt-1 text-sm text-muted">{t('settings.toolIntro')}</p>
      <dl className="mt-4 grid gap-3">
        {ROWS.map(([key, label]) => (
          <div key={key}>
            <dt className="text-sm font-medium text-ink">{t(label)}</dt>
            <dd className="font-mono text-sm break-all text-muted" data-testid={`lti-${key}`}>
              {configuration[key]}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
