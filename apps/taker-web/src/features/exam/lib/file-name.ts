/** The file name of a file answer ('File: {name}'), or null when the answer is no file. */
export function fileNameOf(answer: string): string | null {
  const match = /^File: (.+)$/s.exec(answer);
  return match ? match[1]! : null;
}
