// Adds jest-dom's matchers to vitest (and their types to this package's type check).
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(cleanup);
