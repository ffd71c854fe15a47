// The creator app speaks English (ARCHITECTURE.md, "Text and languages"); numbers read as in its other pages.
const LOCALE = 'en-US';
const percentFormat = new Intl.NumberFormat(LOCALE, { style: 'percent', maximumFractionDigits: 0 });
const signedPercentFormat = new Intl.NumberFormat(LOCALE, {
  style: 'percent',
  maximumFractionDigits: 0,
  signDisplay: 'exceptZero',
});
const usdFormat = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });
const countFormat = new Intl.NumberFormat(LOCALE);

export const formatPercent = (rate: number) => percentFormat.format(rate);
export const formatSignedPercent = (rate: number) => signedPercentFormat.format(rate);
export const formatCount = (n: number) => countFormat.format(n);
/** Under a cent still reads as a cost, not as free. */
export const formatUsd = (cost: number) =>
  cost > 0 && cost < 0.01 ? `< ${usdFormat.format(0.01)}` : usdFormat.format(cost);
