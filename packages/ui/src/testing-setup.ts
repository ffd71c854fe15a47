// Adds jest-dom's matchers to vitest (and their types to this package's type check).
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { createI18n } from './lib/i18n.ts';

// The shared components read their text from the `ui` catalogue; tests read it in English, as the apps do.
createI18n({ resources: {}, defaultNS: 'ui', languages: ['en', 'es'] });

afterEach(cleanup);
