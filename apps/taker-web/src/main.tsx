import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider.tsx';
import { AppRouter } from './app/router.tsx';
import { i18nReady } from './i18n/index.ts';
import './index.css';
import { applyPreferences, readPreferences } from './lib/display-preferences.ts';

// Before the first paint, so a dark or large-text page never flashes the default.
applyPreferences(readPreferences());

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A candidate reading another language than English gets its catalogues before the first render.
await i18nReady;

createRoot(root).render(
  <StrictMode>
    <AppProvider>
      <AppRouter />
    </AppProvider>
  </StrictMode>,
);
