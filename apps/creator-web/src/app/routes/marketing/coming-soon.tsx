import { ComingSoonPage } from '@exam/ui/marketing-pages';
import { renderRouterLink } from './render-link.tsx';

export function AboutRoute() {
  return <ComingSoonPage title="About" renderLink={renderRouterLink} />;
}

export function CareersRoute() {
  return <ComingSoonPage title="Careers" renderLink={renderRouterLink} />;
}
