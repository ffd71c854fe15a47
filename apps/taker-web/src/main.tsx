import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider.tsx';
import { AppRouter } from './app/router.tsx';
import './i18n/index.ts';
import './index.css';
import { applyPreferences, readPreferences } from './lib/display-preferences.ts';

// Before the first paint, so a dark or large-text page never flashes the default.
applyPreferences(readPreferences());

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <AppProvider>
      <AppRouter />
    </AppProvider>
  </StrictMode>,
);
