import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProvider, createQueryClient } from './app/provider.tsx';
import { createAppRouter } from './app/router.tsx';
import { loadRuntimeConfig } from './config/runtime-config.ts';
import { i18nReady } from './i18n/index.ts';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A creator reading another language than English gets its catalogues before the first render.
const [runtimeConfig] = await Promise.all([loadRuntimeConfig(), i18nReady]);
const router = createAppRouter();

createRoot(root).render(
  <StrictMode>
    <AppProvider queryClient={createQueryClient()} runtimeConfig={runtimeConfig}>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
);
