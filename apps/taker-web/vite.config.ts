import { appViteConfig } from '@exam/web-config/vite-preset';
import { defineConfig } from 'vite';

export default defineConfig(appViteConfig('taker-web'));
