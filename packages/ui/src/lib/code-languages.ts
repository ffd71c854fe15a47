import { LanguageSupport, StreamLanguage } from '@codemirror/language';
import type { CodingLanguage } from '@exam/domain/exam';

/**
 * The grammars of the code editor's languages, one chunk each, fetched when first needed. The editor
 * (`code-editor.tsx`) and the highlighted code blocks of rich text (`rich-text-renderer.tsx`) load them
 * here, so a fence and the editor colour the same language the same way.
 */
export async function loadLanguage(language: CodingLanguage): Promise<LanguageSupport> {
  switch (language) {
    case 'python':
      return (await import('@codemirror/lang-python')).python();
    case 'javascript':
      return (await import('@codemirror/lang-javascript')).javascript();
    case 'sql':
      return (await import('@codemirror/lang-sql')).sql();
    case 'java':
      return (await import('@codemirror/lang-java')).java();
    case 'cpp':
      return (await import('@codemirror/lang-cpp')).cpp();
    case 'r': {
      const { r } = await import('@codemirror/legacy-modes/mode/r');
      return new LanguageSupport(StreamLanguage.define(r));
    }
  }
}

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
