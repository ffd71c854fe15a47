import { activeLanguage } from '../i18n/index.ts';

/** A count in the page's language: '12,500' / '12.500' (never a fixed 'en-US'); made per call, as the language can change. */
export const formatCount = (n: number): string => new Intl.NumberFormat(activeLanguage()).format(n);
