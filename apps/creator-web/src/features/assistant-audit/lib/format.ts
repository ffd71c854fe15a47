import { activeLanguage } from '../../../i18n/index.ts';

// Numbers read in the page's language (ARCHITECTURE.md, "Text and languages"), as in the app's other pages.
const format = (options?: Intl.NumberFormatOptions) => new Intl.NumberFormat(activeLanguage(), options);

export const formatPercent = (rate: number) => format({ style: 'percent', maximumFractionDigits: 0 }).format(rate);
export const formatSignedPercent = (rate: number) =>
  format({ style: 'percent', maximumFractionDigits: 0, signDisplay: 'exceptZero' }).format(rate);
export const formatCount = (n: number) => format().format(n);
/** Under a cent still reads as a cost, not as free. */
export const formatUsd = (cost: number) => {
  const usd = format({ style: 'currency', currency: 'USD', maximumFractionDigits: 2 });
  return cost > 0 && cost < 0.01 ? `< ${usd.format(0.01)}` : usd.format(cost);
};
