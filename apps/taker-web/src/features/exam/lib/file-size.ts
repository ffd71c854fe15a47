const UNITS = [
  ['byte', 1],
  ['kilobyte', 1024],
  ['megabyte', 1024 ** 2],
  ['gigabyte', 1024 ** 3],
] as const;

/** '512 bytes', '1.5 KB', '10 MB' in the page's language (binary multiples, as the server's limit is). */
export function formatFileSize(bytes: number, locale: string): string {
  const [unit, size] = UNITS.findLast(([, factor]) => bytes >= factor) ?? UNITS[0];
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit,
    unitDisplay: unit === 'byte' ? 'long' : 'short',
    maximumFractionDigits: unit === 'byte' ? 0 : 1,
  }).format(bytes / size);
}

/** The file name of a file answer ('File: {name}'), or null when the answer is no file. */
export function fileNameOf(answer: string): string | null {
  const match = /^File: (.+)$/s.exec(answer);
  return match ? match[1]! : null;
}
