import { LanguageSupport, StreamLanguage } from '@codemirror/language';
import type { CodingLanguage } from '@exam/domain/question';

/**
 * The grammars of the code editor's languages, one chunk each, fetched when first needed. The editor
 * (`code-editor.tsx`) and the highlighted code blocks of rich text (`code-highlight.ts`) load them
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
