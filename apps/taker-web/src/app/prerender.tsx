import { renderToString } from 'react-dom/server';
import { createMemoryRouter } from 'react-router';
import { paths } from '../config/paths.ts';
import { i18n } from '../i18n/index.ts';
import { AppRoot, withLoaded } from './root.tsx';
import { routes } from './router.tsx';
import { StartRoute } from './routes/taker/start.tsx';

export { LANGUAGES } from '../i18n/index.ts';

/** The language the prerendered pages are written in (the app's default); the web server serves them to it only. */
export const PRERENDER_LANGUAGE = 'en';

/**
 * The start page as HTML, written at build time (vite.config.ts) so its form shows before any script has
 * loaded; main.tsx hydrates it. Only the start page qualifies: the details page and the briefing are drawn
 * from the exam the candidate chose (navigation state and the API), so they have no static content to write.
 */
export async function renderStartPage(): Promise<string> {
  await i18n.changeLanguage(PRERENDER_LANGUAGE);
  const router = createMemoryRouter(withLoaded(routes, paths.start, StartRoute), { initialEntries: [paths.start] });
  return renderToString(<AppRoot router={router} />);
}
