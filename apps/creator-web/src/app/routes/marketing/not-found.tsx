import { NotFoundPage } from '@exam/ui/marketing-pages';
import { useLocation } from 'react-router';
import { renderRouterLink } from './render-link.tsx';

export function NotFoundRoute() {
  const location = useLocation();
  return <NotFoundPage path={location.pathname} renderLink={renderRouterLink} />;
}
