import { type XmlChild, type XmlNode, local, parseXml, textOf } from './xml.ts';

/**
 * Question text from other systems is HTML; the platform's question content is Markdown (rendered by
 * packages/ui's rich-text renderer). This keeps the text and the structure Markdown can say (paragraphs,
 * line breaks, bold, italics, code, lists, links) and drops the rest of the markup. Audio and video become links
 * to their source, so the text still says where the recording is; images are not carried over, and the caller
 * lists them as a reason when they carried the question.
 */
const BLOCKS = new Set(['p', 'div', 'blockquote', 'section', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'tr', 'pre']);

/** Text to put in place of an element (a gap, a printed variable), or undefined to render it as usual. */
export type Replace = (node: XmlNode) => string | undefined;

type Options = { skip: ReadonlySet<string>; replace: Replace };

function render(children: XmlChild[], opts: Options): string {
  return children.map((c) => (typeof c === 'string' ? c.replace(/\s+/g, ' ') : renderNode(c, opts))).join('');
}

function renderNode(node: XmlNode, opts: Options): string {
  const name = local(node.name).toLowerCase();
  if (opts.skip.has(name)) return '';
  const replaced = opts.replace(node);
  if (replaced !== undefined) return replaced;
  const inner = render(node.children, opts);
  switch (name) {
    case 'br':
      return '\n';
    case 'qti-text-entry-interaction':
      return '____';
    case 'strong':
    case 'b':
      return inner.trim() ? `**${inner.trim()}**` : '';
    case 'em':
    case 'i':
      return inner.trim() ? `*${inner.trim()}*` : '';
    case 'span': {
      // Moodle's editors write emphasis as styled spans.
      const style = (node.attrs.style ?? '').replace(/\s/g, '');
      if (inner.trim() && /font-weight:(bold|[6-9]00)/.test(style)) return `**${inner.trim()}**`;
      if (inner.trim() && style.includes('font-style:italic')) return `*${inner.trim()}*`;
      return inner;
    }
    case 'code':
      return `\`${inner}\``;
    case 'pre':
      return `\n\n\`\`\`\n${textOf(node).replace(/\n$/, '')}\n\`\`\`\n\n`;
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      return `\n\n${'#'.repeat(Number(name[1]))} ${inner.trim()}\n\n`;
    case 'a': {
      const href = node.attrs.href?.trim() ?? '';
      return href && inner.trim() ? `[${inner.trim()}](${markdownUrl(href)})` : inner;
    }
    case 'audio':
    case 'video': {
      const source =
        node.attrs.src ??
        node.children.find((c): c is XmlNode => typeof c !== 'string' && local(c.name) === 'source')?.attrs.src;
      if (!source?.trim()) return inner;
      const file =
        source
          .trim()
          .replace(/[?#].*$/, '')
          .replace(/^.*\//, '') || name;
      return `[${name}: ${file}](${markdownUrl(source.trim())})`;
    }
    case 'source':
      return '';
    case 'li':
      return `\n- ${inner.trim()}`;
    case 'ul':
    case 'ol':
      return `\n${inner}\n\n`;
    case 'td':
    case 'th':
      return `${inner.trim()} `;
    default:
      return BLOCKS.has(name) ? `\n\n${inner.trim()}\n\n` : inner;
  }
}

/** A URL as a Markdown link target: in angle brackets when it holds spaces or parentheses. */
const markdownUrl = (url: string) => (/[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url);

/** The targets of a Markdown text's links (what `[text](url)` points at), for readers that check them. */
export function linkTargets(markdown: string): string[] {
  return [...markdown.matchAll(/\]\((<[^>]*>|[^)\s]*)\)/g)].map((m) => m[1]!.replace(/^<|>$/g, ''));
}

/** Collapses the blank lines the block rules leave and trims every line. */
function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Markdown of an element's children, leaving out elements with the given local names. */
export function markdownOf(
  children: XmlChild[],
  skip: ReadonlySet<string> = new Set(),
  replace: Replace = () => undefined,
): string {
  return tidy(render(children, { skip, replace }));
}

/** Markdown of an HTML fragment (Moodle, GIFT `[html]`); a fragment that is not well-formed is read as text. */
export function htmlToMarkdown(html: string): string {
  if (!/[<&]/.test(html)) return html.trim();
  try {
    return markdownOf(parseXml(`<root>${html.replace(/&nbsp;/g, '&#160;')}</root>`).children);
  } catch {
    // Not well-formed (HTML's bare attributes, unclosed tags): links and media sources are kept all the same.
    const attr = (tag: string, name: string) =>
      new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag)?.slice(1).find(Boolean);
    return tidy(
      html
        .replace(/<a\b([^>]*)>([\s\S]*?)<\/a>/gi, (whole, tag: string, inner: string) => {
          const href = attr(tag, 'href');
          const label = inner.replace(/<[^>]*>/g, '').trim();
          return href && label ? `[${label}](${markdownUrl(href)})` : whole;
        })
        .replace(/<(audio|video|source)\b([^>]*)>/gi, (_whole, name: string, tag: string) => {
          const src = attr(tag, 'src');
          const kind = name.toLowerCase() === 'video' ? 'video' : 'audio';
          return src ? `[${kind}: ${src.replace(/[?#].*$/, '').replace(/^.*\//, '')}](${markdownUrl(src)})` : '';
        })
        .replace(/<br\s*\/?>/gi, '\n')
        .replace(/<\/p>/gi, '\n\n')
        .replace(/<[^>]*>/g, ''),
    );
  }
}
