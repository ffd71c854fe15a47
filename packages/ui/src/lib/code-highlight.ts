import { defaultHighlightStyle, type LanguageSupport } from '@codemirror/language';
import type { CodingLanguage } from '@exam/domain/question';
import { highlightCode } from '@lezer/highlight';
import { StyleModule } from 'style-mod';
import { loadLanguage } from './code-languages.ts';

/** A run of code text and the highlighter's class names for it ('' when the text is not a token). */
export type CodeToken = { text: string; className: string };

export type Highlighter = (code: string) => CodeToken[];

let mounted = false;

/**
 * The code editor colours tokens with CodeMirror's default highlight style (the fallback of its basic setup,
 * which no theme of ours replaces). Its rules are one style module; it is mounted into the document the way
 * CodeMirror mounts it (a constructed stylesheet, which the pages' CSP allows), once.
 */
function mountHighlightStyle() {
  if (mounted || typeof document === 'undefined') return;
  const module = defaultHighlightStyle.module;
  if (module) StyleModule.mount(document, module);
  mounted = true;
}

/**
 * Splits `code` into tokens with the editor's parser and highlight style, so a code block in rich text is
 * coloured exactly as the editor colours the same code. Line breaks are kept as '\n' text.
 */
export function highlight(code: string, language: LanguageSupport): CodeToken[] {
  mountHighlightStyle();
  const tokens: CodeToken[] = [];
  const tree = language.language.parser.parse(code);
  highlightCode(
    code,
    tree,
    defaultHighlightStyle,
    (text, className) => tokens.push({ text, className }),
    () => tokens.push({ text: '\n', className: '' }),
  );
  return tokens;
}

/** The highlighter of one editor language, once its grammar has been fetched. */
export async function loadHighlighter(language: CodingLanguage): Promise<Highlighter> {
  const support = await loadLanguage(language);
  return (code) => highlight(code, support);
}
