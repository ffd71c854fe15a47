// KaTeX and its stylesheet (with its fonts, bundled as files: nothing is fetched from another origin) are a
// chunk of their own, loaded only for text that holds a formula.
import 'katex/dist/katex.min.css';
import katex, { type KatexOptions } from 'katex';

/**
 * `trust: false` keeps \href, \url and \includegraphics from making links or loading images; a formula KaTeX
 * cannot parse is shown as its source in red instead of breaking the text. Sizes and macro expansion are
 * capped so a hostile formula cannot make the page huge or hang it.
 */
const options: KatexOptions = { throwOnError: false, strict: 'ignore', trust: false, maxSize: 20, maxExpand: 1000 };

/**
 * Typesets `tex` into `element`. KaTeX builds the DOM itself and sets its sizes through the CSSOM, which the
 * pages' CSP allows; its HTML string, parsed, would carry style attributes the CSP refuses (style-src-attr).
 */
export function renderMath(tex: string, element: HTMLElement, displayMode: boolean): void {
  katex.render(tex, element, { ...options, displayMode });
}
