import english from '../../../i18n/locales/en/workspace-ai.json';
import { i18n } from '../../../i18n/index.ts';

/**
 * The workspace AI note's English strings travel with the workspace panel's chunk (i18n/index.ts leaves them out of
 * the first script); other languages bring theirs with their own catalogues. Registered when first loaded.
 */
if (!i18n.hasResourceBundle('en', 'workspace-ai')) i18n.addResourceBundle('en', 'workspace-ai', english, true, false);
