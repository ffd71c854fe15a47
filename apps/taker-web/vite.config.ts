import { appViteConfig } from '@exam/web-config/vite-preset';
import { defineConfig } from 'vite';

const preset = appViteConfig('taker-web');

// The build manifest (which chunk imports which) is what the page-weight budgets read (weight/page-weight.ts).
export default defineConfig({ ...preset, build: { ...preset.build, manifest: 'build-manifest.json' } });
