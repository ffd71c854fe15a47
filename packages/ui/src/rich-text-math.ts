// KaTeX and its stylesheet (with its fonts, bundled as files: nothing is fetched from another origin) are a
// chunk of their own, loaded only for text that holds a formula.
import 'katex/dist/katex.min.css';
import rehypeKatex, { type Options } from 'rehype-katex';

/**
 * `trust: false` keeps \href, \url and \includegraphics from making links or loading images; a formula
 * KaTeX cannot parse is shown as its source in red instead of breaking the text. Sizes and macro expansion
 * are capped so a hostile formula cannot make the page huge or hang it.
 */
const options: Options = { strict: 'ignore', trust: false, maxSize: 20, maxExpand: 1000 };

export const rehypeMath: [typeof rehypeKatex, Options] = [rehypeKatex, options];
