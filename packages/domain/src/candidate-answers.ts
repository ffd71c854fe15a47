/**
 * What the candidate's question cards need, without the schemas of grading.ts and coding.ts (which keep their
 * rules and re-export these): the choices codec, points as people read them, and a coding question's starter
 * code and workspace file per language. The exam page shows its questions with these and no zod
 * (bench/README.md, "Page weight").
 */

/** The languages code runs in (RunLanguageSchema in coding.ts). */
export const RUN_LANGUAGES = ['python', 'javascript', 'sql', 'r', 'java', 'cpp'] as const;
export type RunLanguage = (typeof RUN_LANGUAGES)[number];

/** The file name the runner gives the candidate's code, per language. */
export const SOURCE_FILES = {
  python: 'main.py',
  javascript: 'main.js',
  sql: 'main.sql',
  r: 'main.R',
  java: 'Main.java',
  cpp: 'main.cpp',
} as const;

/**
 * The workspace file of a question answered in `language`: the question's file with the language's source file name
 * (`q1-sum/main.py` → `q1-sum/main.js`) when the candidate chose a further language, the question's file otherwise.
 */
export function workspaceFileFor(
  q: { language?: RunLanguage | undefined; workspaceFile?: string | null | undefined },
  language: RunLanguage | undefined,
): string | null {
  if (!q.workspaceFile) return null;
  if (!language || language === q.language) return q.workspaceFile;
  const slash = q.workspaceFile.lastIndexOf('/');
  return `${q.workspaceFile.slice(0, slash + 1)}${SOURCE_FILES[language]}`;
}

/** The starter code of a question in one of its languages. */
export function starterCodeFor(
  q: {
    language?: RunLanguage | undefined;
    starterCode?: string | undefined;
    starterCodes?: Partial<Record<RunLanguage, string>> | undefined;
  },
  language: RunLanguage | undefined,
): string {
  if (!language || language === q.language) return q.starterCode ?? '';
  return q.starterCodes?.[language] ?? '';
}

/** A multiple-answer MCQ answer travels as a JSON array of option texts; a single answer as the option text. */
export function encodeChoices(choices: readonly string[]): string {
  return JSON.stringify([...choices]);
}

export function decodeChoices(answer: string | undefined): string[] {
  if (!answer) return [];
  try {
    const parsed: unknown = JSON.parse(answer);
    if (Array.isArray(parsed)) return [...new Set(parsed.filter((c): c is string => typeof c === 'string'))];
  } catch {
    // A single choice stored as plain text (an answer saved before the question allowed several).
  }
  return [answer];
}

/** Points as people read them: up to two decimals, no trailing zeros ("2", "2.5", "0.33"). */
export function formatPoints(points: number): string {
  return String(Math.round(points * 100) / 100);
}
