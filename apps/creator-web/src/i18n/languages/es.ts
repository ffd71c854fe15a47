import type { ResourceLanguage } from 'i18next';

/**
 * The Spanish catalogues, one chunk fetched by ../index.ts only for a creator who reads Spanish. It imports
 * nothing else, so no module the first script needs is split off into a chunk the two share.
 */
const files = import.meta.glob<{ default: ResourceLanguage[string] }>('../locales/es/*.json', { eager: true });
const catalogues: ResourceLanguage = Object.fromEntries(
  Object.entries(files).map(([path, module]) => [/([^/]+)\.json$/.exec(path)![1]!, module.default]),
);
export default catalogues;
