import { type XmlChild, type XmlNode, local, parseXml, textOf } from './xml.ts';

/**
 * Question text from other systems is HTML; the platform's question content is Markdown (rendered by
 * packages/ui's rich-text renderer). This keeps the text and the structure Markdown can say (paragraphs,
 * line breaks, bold, italics, code, lists) and drops the rest of the markup. Images and media are not
 * carried over; the caller lists them as a reason when they carried the question.
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
    return tidy(
      html
        .replace(/<br\s*\/?>/gi, '\n')
        .replace(/<\/p>/gi, '\n\n')
        .replace(/<[^>]*>/g, ''),
    );
  }
}
