import type { CodingLanguage } from '@exam/domain/question';
import {
  Fragment,
  memo,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type ReactNode,
} from 'react';
import ReactMarkdown, { type Components, type ExtraProps, type Options } from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import type { CodeToken, Highlighter } from './lib/code-highlight.ts';
import { fenceLanguage } from './lib/fence-languages.ts';
import { useTranslation } from 'react-i18next';

type Pluggable = NonNullable<Options['remarkPlugins']>[number];

/** Spec section 5: a fence's first line names the language when it is under 20 characters without spaces. */
const MAX_LABEL_LENGTH = 20;

export function codeBlockLabel(infoString: string): string {
  const info = infoString.trim();
  return info.length > 0 && info.length < MAX_LABEL_LENGTH && !/\s/.test(info) ? info : 'code';
}

/** Link and image schemes that are kept; any other (javascript:, data:, vbscript:, file:…) is dropped. */
const SAFE_PROTOCOLS = new Set(['http', 'https', 'mailto']);

/**
 * The URL of a link or image when it is safe to follow: http(s), mailto or relative (no scheme before the first
 * '/', '?' or '#'); otherwise ''. The scheme is read up to the first ':' as browsers read it, so a tab or
 * newline inside "java\tscript:" does not slip a script through as a "relative" URL.
 */
export function safeUrl(url: string): string {
  const colon = url.indexOf(':');
  if (colon === -1) return url;
  const firstOther = url.search(/[/?#]/);
  if (firstOther !== -1 && firstOther < colon) return url;
  return SAFE_PROTOCOLS.has(url.slice(0, colon).toLowerCase()) ? url : '';
}

/**
 * An image's URL may also be a raster picture carried in the text itself (`data:image/png;base64,…`), as a
 * Moodle 1.9 picture is imported (packages/interchange); an `<img>` never runs what it shows. SVG stays out: it
 * can hold script.
 */
const INLINE_PICTURE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+=*$/;

export function safeUrlFor(url: string, key: string): string {
  return key === 'src' && INLINE_PICTURE.test(url) ? url : safeUrl(url);
}

type HastNode = NonNullable<ExtraProps['node']>['children'][number];

function textOf(node: HastNode): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

function languageOf(code: HastNode | undefined): string {
  if (!code || code.type !== 'element') return '';
  const classes = Array.isArray(code.properties.className) ? code.properties.className : [];
  return (
    classes
      .map(String)
      .find((c) => c.startsWith('language-'))
      ?.slice('language-'.length) ?? ''
  );
}

/** The fence's whole info string: react-markdown keeps its first word as `language-x` and the rest as meta. */
function infoStringOf(code: HastNode | undefined): string {
  const language = languageOf(code);
  const meta = code?.type === 'element' ? (code.data as { meta?: unknown } | undefined)?.meta : undefined;
  return typeof meta === 'string' && meta ? `${language} ${meta}` : language;
}

/** Highlighters already fetched, so a later block in the same language is coloured on its first render. */
const highlighters = new Map<CodingLanguage, Highlighter>();

/**
 * The code's tokens coloured by the editor's highlighter, or undefined for a language the editor lacks (and
 * until the highlighter arrives: CodeMirror and each grammar are fetched only for text with such a block).
 */
function useHighlighted(code: string, fenceName: string): CodeToken[] | undefined {
  const language = fenceLanguage(fenceName);
  const [highlighter, setHighlighter] = useState(() => (language ? highlighters.get(language) : undefined));
  useEffect(() => {
    const known = language ? highlighters.get(language) : undefined;
    if (!language || known) {
      setHighlighter(() => known);
      return;
    }
    let live = true;
    import('./lib/code-highlight.ts')
      .then(({ loadHighlighter }) => loadHighlighter(language))
      .then((loaded) => {
        highlighters.set(language, loaded);
        if (live) setHighlighter(() => loaded);
      })
      .catch((error: unknown) => console.warn('Could not load the highlighter for', language, error));
    return () => {
      live = false;
    };
  }, [language]);
  return useMemo(() => highlighter?.(code), [code, highlighter]);
}

function hasClass(node: HastNode | undefined, name: string): boolean {
  if (!node || node.type !== 'element') return false;
  const classes = node.properties.className;
  return Array.isArray(classes) && classes.map(String).includes(name);
}

type MathRenderer = (tex: string, element: HTMLElement, displayMode: boolean) => void;
let mathLoad: Promise<MathRenderer> | undefined;
let mathRenderer: MathRenderer | undefined;

/** KaTeX, fetched once and only when some text holds a formula. */
function useMathRenderer(): MathRenderer | undefined {
  const [renderer, setRenderer] = useState(() => mathRenderer);
  useEffect(() => {
    if (renderer) return;
    let live = true;
    mathLoad ??= import('./rich-text-math.ts').then(({ renderMath }) => (mathRenderer = renderMath));
    mathLoad
      .then((loaded) => live && setRenderer(() => loaded))
      .catch((error: unknown) => console.warn('Could not load KaTeX', error));
    return () => {
      live = false;
    };
  }, [renderer]);
  return renderer;
}

/**
 * A `$$…$$` formula, typeset by KaTeX into an element React leaves empty (KaTeX owns its children); its
 * source shows until KaTeX has arrived.
 */
function Formula({ tex, display }: { tex: string; display: boolean }) {
  const render = useMathRenderer();
  const target = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    if (render && target.current) render(tex, target.current, display);
  }, [render, tex, display]);
  const Wrapper = display ? 'div' : 'span';
  return (
    <Wrapper className={display ? 'my-2' : undefined} data-math={display ? 'display' : 'inline'}>
      <span ref={target} />
      {!render && <code>{tex}</code>}
    </Wrapper>
  );
}

/** Inline code, or an inline formula (remark-math marks it as code of class `math-inline`). */
function InlineCode({ node, children, className }: ComponentProps<'code'> & ExtraProps) {
  if (hasClass(node, 'math-inline')) return <Formula tex={node ? textOf(node) : ''} display={false} />;
  return <code className={className}>{children}</code>;
}

function CodeBlock({ node }: ComponentProps<'pre'> & ExtraProps) {
  const code = node?.children.find((child) => child.type === 'element' && child.tagName === 'code');
  if (hasClass(code, 'math-display')) return <Formula tex={code ? textOf(code) : ''} display />;
  return <FencedCode code={code} />;
}

function FencedCode({ code }: { code: HastNode | undefined }) {
  const label = codeBlockLabel(infoStringOf(code));
  const text = code ? textOf(code).replace(/\n$/, '') : '';
  const tokens = useHighlighted(text, languageOf(code));
  return (
    <figure className="my-2 overflow-hidden rounded-lg border border-line bg-surface text-ink" data-testid="code-block">
      <figcaption className="border-b border-line bg-canvas px-3 py-1 font-mono text-[11px] uppercase tracking-wide text-muted">
        {label}
      </figcaption>
      <pre className="overflow-x-auto p-3 text-xs leading-relaxed" data-highlighted={tokens ? 'true' : undefined}>
        <code className="font-mono">
          {tokens
            ? tokens.map((token, i) =>
                token.className ? (
                  <span key={i} className={token.className}>
                    {token.text}
                  </span>
                ) : (
                  <Fragment key={i}>{token.text}</Fragment>
                ),
              )
            : text}
        </code>
      </pre>
    </figure>
  );
}

/** A link opens in a new tab without handing the page to it; one whose URL was dropped is plain text. */
function Link({ node: _node, href, children, ...props }: ComponentProps<'a'> & ExtraProps) {
  if (!href) return <span>{children}</span>;
  if (href.startsWith('#'))
    return (
      <a {...props} href={href}>
        {children}
      </a>
    );
  return (
    <a {...props} href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/**
 * Images are never loaded: a picture from another site would tell it who is sitting the exam (and the pages'
 * CSP blocks them anyway). The image becomes a link to it, named by its alt text. A picture carried in the text
 * itself (INLINE_PICTURE) loads nothing from anywhere, so it is shown (the CSP allows data: images).
 */
function Image({ src, alt }: ComponentProps<'img'> & ExtraProps) {
  const { t } = useTranslation('ui');
  const label = t('richText.image', { alt: alt || t('richText.untitledImage') });
  if (typeof src === 'string' && INLINE_PICTURE.test(src))
    return <img src={src} alt={alt ?? ''} className="max-w-full" />;
  if (typeof src !== 'string' || !src) return <span>{label}</span>;
  return (
    <a href={src} target="_blank" rel="noopener noreferrer">
      {label}
    </a>
  );
}

/** An option label is one line of inline text: what would start a block (a list, a heading…) stays text. */
const BLOCK_CONSTRUCTS = [
  'blockQuote',
  'codeFenced',
  'codeIndented',
  'definition',
  'headingAtx',
  'htmlFlow',
  'list',
  'mathFlow',
  'setextUnderline',
  'table',
  'thematicBreak',
];

function remarkInlineOnly(this: { data(): { micromarkExtensions?: unknown[] } }) {
  const data = this.data();
  (data.micromarkExtensions ??= []).push({ disable: { null: BLOCK_CONSTRUCTS } });
}

/** `$$…$$` is math (inline in a sentence, displayed on lines of its own); a lone `$` stays a dollar sign. */
const MATH: Pluggable = [remarkMath, { singleDollarTextMath: false }];
const BLOCK_PLUGINS = [remarkGfm, remarkBreaks, MATH];
const INLINE_PLUGINS = [remarkGfm, remarkBreaks, MATH, remarkInlineOnly as Pluggable];

const blockComponents: Components = { pre: CodeBlock, code: InlineCode, a: Link, img: Image };
const inlineComponents: Components = {
  ...blockComponents,
  p: ({ children }: { children?: ReactNode }) => <>{children}</>,
};

export type RichTextRendererProps = { text: string; inline?: boolean };

/**
 * Markdown to React (GitHub flavour, `$$` math, a line break where the author broke the line). Raw HTML is
 * shown as the text it is and never becomes markup; URLs go through `safeUrl`.
 */
const RichTextRenderer = memo(function RichTextRenderer({ text, inline = false }: RichTextRendererProps) {
  return (
    <ReactMarkdown
      remarkPlugins={inline ? INLINE_PLUGINS : BLOCK_PLUGINS}
      components={inline ? inlineComponents : blockComponents}
      urlTransform={safeUrlFor}
    >
      {text}
    </ReactMarkdown>
  );
});

export default RichTextRenderer;
