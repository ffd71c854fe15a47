import { Fragment, lazy, Suspense } from 'react';
import { cn } from './lib/cn.ts';

// The Markdown pipeline is a chunk of its own (KaTeX and each grammar a further one, fetched on need), so a
// page's first load does not carry it; until it arrives the text shows as typed. Text with nothing for it to
// format (isPlainText) never fetches it.
const Renderer = lazy(() => import('./rich-text-renderer.tsx'));

/** Starts fetching the renderer ahead of the first rich text (e.g. while a page's data loads). */
export function preloadRichText() {
  void import('./rich-text-renderer.tsx');
}

const blockClasses = cn(
  'min-w-0 break-words',
  '[&_p]:my-1.5 [&_ul]:my-1.5 [&_ul]:list-disc [&_ul]:pl-5 [&_ol]:my-1.5 [&_ol]:list-decimal [&_ol]:pl-5 [&_li]:my-0.5',
  '[&_h1]:mt-2 [&_h1]:text-base [&_h1]:font-semibold [&_h2]:mt-2 [&_h2]:font-semibold [&_h3]:mt-2 [&_h3]:font-semibold',
  '[&_a]:text-brand-600 [&_a]:underline [&_blockquote]:border-l-2 [&_blockquote]:border-line [&_blockquote]:pl-3 [&_blockquote]:text-muted',
  '[&_table]:my-2 [&_table]:w-full [&_table]:text-xs [&_td]:border [&_td]:border-line [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:border-line [&_th]:px-2 [&_th]:py-1',
  '[&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-slate-200/70 [&_:not(pre)>code]:px-1 [&_:not(pre)>code]:font-mono [&_:not(pre)>code]:text-[0.85em]',
  '[&_.katex-display]:overflow-x-auto [&_.katex-display]:overflow-y-hidden',
  '[&>*:first-child]:mt-0 [&>*:last-child]:mb-0',
);

const inlineClasses = cn(
  'break-words [&_a]:text-brand-600 [&_a]:underline',
  '[&_code]:rounded [&_code]:bg-slate-200/70 [&_code]:px-1 [&_code]:font-mono [&_code]:text-[0.85em]',
);

/**
 * Text in which Markdown (GitHub's flavour and $$ math) can find nothing to format: no character that may start
 * inline markup, an entity, an autolink or a formula, and no line that may open a block (a list, heading, quote
 * or indented code) or carry spaces that matter. The renderer would show it as paragraphs split at blank lines
 * with every other line break kept (remark-breaks), which is what PlainParagraphs draws without fetching it.
 * Anything doubtful goes to the renderer.
 */
const MAYBE_MARKUP = /[\\`*_~[\]<>!#|$&:@=+{}\t\r]|www\.|^ | $|^-|^\d+[.)]/m;

export function isPlainText(text: string): boolean {
  return !MAYBE_MARKUP.test(text);
}

function PlainParagraphs({ text }: { text: string }) {
  const paragraphs = text
    .replace(/^\n+|\n+$/g, '')
    .split(/\n{2,}/)
    .filter(Boolean);
  // Paragraphs apart by a newline and soft breaks keeping theirs, as the renderer writes them: the text a screen
  // reader or a copy gets is the same.
  return paragraphs.map((paragraph, p) => (
    <Fragment key={p}>
      {p > 0 && '\n'}
      <p>
        {paragraph.split('\n').map((line, l) => (
          <Fragment key={l}>
            {/* As the renderer's soft break: the line break and then the newline itself (collapsed as a space). */}
            {l > 0 && <br />}
            {l > 0 ? `\n${line}` : line}
          </Fragment>
        ))}
      </p>
    </Fragment>
  ));
}

type RichTextProps = { children: string; className?: string; testId?: string };

/**
 * Authored text (a question, the exam's description and rules) and assistant replies, as Markdown: GitHub
 * flavour, fenced code coloured by the code editor's highlighter, `$$…$$` math by KaTeX. Never raw HTML;
 * links only to http(s), mailto or relative URLs, opened in a new tab (docs/product.md#rich-text).
 * Plain text reads as it was typed, line breaks included.
 */
export function RichText({ children, className, testId }: RichTextProps) {
  return (
    <div className={cn(blockClasses, className)} data-testid={testId} data-rich-text="">
      {isPlainText(children) ? (
        <PlainParagraphs text={children} />
      ) : (
        <Suspense fallback={<p className="whitespace-pre-wrap">{children}</p>}>
          <Renderer text={children} />
        </Suspense>
      )}
    </div>
  );
}

/** One line of rich text inside other content (an option's label): emphasis, code, links and math only. */
export function InlineRichText({ children, className, testId }: RichTextProps) {
  return (
    <span className={cn(inlineClasses, className)} data-testid={testId} data-rich-text="">
      {isPlainText(children) && !children.includes('\n') ? (
        children
      ) : (
        <Suspense fallback={children}>
          <Renderer text={children} inline />
        </Suspense>
      )}
    </span>
  );
}
