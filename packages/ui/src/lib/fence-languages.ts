import type { CodingLanguage } from '@exam/domain/question';

// Kept apart from the grammars (code-languages.ts) so rich text can tell whether a fence is highlighted
// without loading CodeMirror.

/** The names a fence may give each editor language (lower case); any other name is shown unhighlighted. */
const FENCE_NAMES: Record<string, CodingLanguage> = {
  python: 'python',
  py: 'python',
  python3: 'python',
  javascript: 'javascript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  node: 'javascript',
  sql: 'sql',
  java: 'java',
  cpp: 'cpp',
  'c++': 'cpp',
  cc: 'cpp',
  cxx: 'cpp',
  c: 'cpp',
  h: 'cpp',
  hpp: 'cpp',
  r: 'r',
};

/** The editor language a fence's language name stands for, if any. */
export function fenceLanguage(name: string): CodingLanguage | undefined {
  return Object.hasOwn(FENCE_NAMES, name.toLowerCase()) ? FENCE_NAMES[name.toLowerCase()] : undefined;
}
