import { ComingSoonPage } from '@exam/ui/marketing-pages';
import { renderRouterLink } from './render-link.tsx';
import { useTranslation } from 'react-i18next';

export function AboutRoute() {
  const { t } = useTranslation('common');
  return <ComingSoonPage title={t('comingSoon.about')} renderLink={renderRouterLink} />;
}

export function CareersRoute() {
  const { t } = useTranslation('common');
  return <ComingSoonPage title={t('comingSoon.careers')} renderLink={renderRouterLink} />;
}
