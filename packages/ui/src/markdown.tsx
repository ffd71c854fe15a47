import { memo, type ComponentProps } from 'react';
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { cn } from './lib/cn.ts';

/** Spec section 5: a fence's first line names the language when it is under 20 characters without spaces. */
const MAX_LABEL_LENGTH = 20;

export function codeBlockLabel(infoString: string): string {
  const info = infoString.trim();
  return info.length > 0 && info.length < MAX_LABEL_LENGTH && !/\s/.test(info) ? info : 'code';
}

type HastNode = NonNullable<ExtraProps['node']>['children'][number];

function textOf(node: HastNode): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

/** The fence's whole info string: react-markdown keeps its first word as `language-x` and the rest as meta. */
function infoStringOf(code: HastNode | undefined): string {
  if (!code || code.type !== 'element') return '';
  const classes = Array.isArray(code.properties.className) ? code.properties.className : [];
  const language =
    classes
      .map(String)
      .find((c) => c.startsWith('language-'))
      ?.slice('language-'.length) ?? '';
  const meta = (code.data as { meta?: unknown } | undefined)?.meta;
  return typeof meta === 'string' && meta ? `${language} ${meta}` : language;
}

function CodeBlock({ node }: ComponentProps<'pre'> & ExtraProps) {
  const code = node?.children.find((child) => child.type === 'element' && child.tagName === 'code');
  const label = codeBlockLabel(infoStringOf(code));
  const text = code ? textOf(code).replace(/\n$/, '') : '';
  return (
    <figure
      className="my-2 overflow-hidden rounded-lg border border-slate-700 bg-slate-900 text-slate-100"
      data-testid="code-block"
    >
      <figcaption className="border-b border-slate-700 px-3 py-1 font-mono text-[11px] uppercase tracking-wide text-slate-300">
        {label}
      </figcaption>
      <pre className="overflow-x-auto p-3 text-xs leading-relaxed">
        <code className="font-mono">{text}</code>
      </pre>
    </figure>
  );
}

function Link({ node: _node, ...props }: ComponentProps<'a'> & ExtraProps) {
  return <a {...props} target="_blank" rel="noopener noreferrer" />;
}

const components: Components = { pre: CodeBlock, a: Link };
const plugins = [remarkGfm];

/**
 * Markdown of an assistant reply (GitHub flavour: tables, lists, strikethrough). Raw HTML is not
 * rendered, so a reply can never inject markup into the page.
 */
export const Markdown = memo(function Markdown({ children, className }: { children: string; className?: string }) {
  return (
    <div
      className={cn(
        'break-words text-sm leading-relaxed',
        '[&_p]:my-1.5 [&_ul]:my-1.5 [&_ul]:list-disc [&_ul]:pl-5 [&_ol]:my-1.5 [&_ol]:list-decimal [&_ol]:pl-5 [&_li]:my-0.5',
        '[&_h1]:mt-2 [&_h1]:text-base [&_h1]:font-semibold [&_h2]:mt-2 [&_h2]:font-semibold [&_h3]:mt-2 [&_h3]:font-semibold',
        '[&_a]:text-brand-600 [&_a]:underline [&_blockquote]:border-l-2 [&_blockquote]:border-line [&_blockquote]:pl-3 [&_blockquote]:text-muted',
        '[&_table]:my-2 [&_table]:w-full [&_table]:text-xs [&_td]:border [&_td]:border-line [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:border-line [&_th]:px-2 [&_th]:py-1',
        '[&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-slate-200/70 [&_:not(pre)>code]:px-1 [&_:not(pre)>code]:font-mono [&_:not(pre)>code]:text-[0.85em]',
        '[&>*:first-child]:mt-0 [&>*:last-child]:mb-0',
        className,
      )}
    >
      <ReactMarkdown remarkPlugins={plugins} components={components}>
        {children}
      </ReactMarkdown>
    </div>
  );
});
