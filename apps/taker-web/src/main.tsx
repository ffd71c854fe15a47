import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { AppRoot, withLoaded } from './app/root.tsx';
import { routes } from './app/router.tsx';
import { i18n, i18nReady } from './i18n/index.ts';
import './index.css';
import { applyPreferences, readPreferences } from './lib/display-preferences.ts';
import { carryTypedValues } from './lib/prerendered-form.ts';

// Before the first paint, so a dark or large-text page never flashes the default.
applyPreferences(readPreferences());

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A candidate reading another language than English gets its catalogues before the first render.
await i18nReady;

// The start page arrives as prerendered HTML (vite.config.ts; <div id="root" data-prerendered="/taker/start">):
// its form shows before this script. Hydrating it keeps what was typed meanwhile; a page in another language
// than the prerender's is drawn afresh in the candidate's, with the typed values carried over.
const { prerendered, language } = root.dataset;
if (prerendered && prerendered === location.pathname) {
  const { StartRoute } = await import('./app/routes/taker/start.tsx');
  const router = createBrowserRouter(withLoaded(routes, prerendered, StartRoute));
  if (i18n.resolvedLanguage === language) {
    hydrateRoot(root, <AppRoot router={router} />);
  } else {
    carryTypedValues(root);
    root.replaceChildren();
    createRoot(root).render(<AppRoot router={router} />);
  }
} else {
  root.replaceChildren();
  createRoot(root).render(<AppRoot router={createBrowserRouter(routes)} />);
}
