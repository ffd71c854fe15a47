import { LandingPage } from '@exam/ui/marketing-pages';
import { useNavigate } from 'react-router';
import { paths, takerPaths } from '../../../config/paths.ts';
import { useRuntimeConfig } from '../../../config/runtime-config.ts';
import { renderRouterLink } from './render-link.tsx';

export function LandingRoute() {
  const navigate = useNavigate();
  const { takerOrigin } = useRuntimeConfig();
  return (
    <LandingPage
      createAssessment={{ onClick: () => void navigate(paths.auth) }}
      takeAssessment={{ onClick: () => window.location.assign(takerPaths.start(takerOrigin)) }}
      renderLink={renderRouterLink}
    />
  );
}
