import type { RenderLink } from '@exam/ui/marketing-pages';
import { Link } from 'react-router';

/** In-app paths navigate without a reload; '#' placeholders stay plain anchors. */
export const renderRouterLink: RenderLink = ({ href, className, children }) =>
  href.startsWith('/') ? (
    <Link to={href} className={className}>
      {children}
    </Link>
  ) : (
    <a href={href} className={className} onClick={(event) => href === '#' && event.preventDefault()}>
      {children}
    </a>
  );
