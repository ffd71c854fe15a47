import { ComingSoonPage, LandingPage, NotFoundPage, type RenderLink } from '@exam/ui/marketing-pages';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { paths } from '../../config/paths.ts';
import { useRuntimeConfig } from '../../lib/runtime-config.ts';

/** In-app links go through the router; '#' placeholders (Demo, Pricing) stay plain anchors. */
const routerLink: RenderLink = ({ href, className, children }) =>
  href.startsWith('/') ? (
    <Link to={href} className={className}>
      {children}
    </Link>
  ) : (
    <a href={href} className={className}>
      {children}
    </a>
  );

export function LandingRoute() {
  const config = useRuntimeConfig();
  // Create Assessment lives in the creator app, on its own origin (GET /runtime-config.json).
  const creatorAuth = paths.creatorAuth(config?.creatorOrigin ?? '');
  return (
    <LandingPage
      createAssessment={{ href: creatorAuth }}
      takeAssessment={{ href: paths.start }}
      renderLink={routerLink}
    />
  );
}

export function AboutRoute() {
  const { t } = useTranslation('ui');
  return <ComingSoonPage title={t('marketing.nav.about')} renderLink={routerLink} />;
}

export function CareersRoute() {
  const { t } = useTranslation('ui');
  return <ComingSoonPage title={t('marketing.nav.careers')} renderLink={routerLink} />;
}

export function NotFoundRoute() {
  const location = useLocation();
  return <NotFoundPage path={location.pathname} renderLink={routerLink} />;
}
