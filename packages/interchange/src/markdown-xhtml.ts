import { escapeXml } from './xml.ts';

/**
 * Question text as XHTML for a QTI item body: the platform's content is Markdown (rendered by packages/ui with
 * GFM and single line breaks as breaks), and a QTI player shows XHTML, never Markdown. The unified/mdast
 * packages cannot be added offline here, so this renders the subset question text uses: paragraphs with line
 * breaks, headings, bullet and numbered lists, block quotes, fenced code, GFM tables, bold, italics, inline
 * code and links. Formulas ($…$) stay as their TeX source. Anything else is shown as the text it is.
 *
 * `slot(key)` fills a placeholder written with `placeholder(key)` (an interaction or a printed variable inside
 * the text) after rendering, so the Markdown around it is rendered as the candidate sees it.
 */
export const placeholder = (key: string) => `\uE000${key}\uE001`;
const PLACEHOLDER = /\uE000([^\uE001]*)\uE001/g;

const TABLE_RULE = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const LIST_ITEM = /^\s{0,3}([-*+]|\d{1,9}[.)])\s+(.*)$/;

export function markdownToXhtml(markdown: string, slot: (key: string) => string = () => ''): string {
  return blocks(markdown.replace(/\r\n?/g, '\n').split('\n')).replace(PLACEHOLDER, (_m, key: string) => slot(key));
}

function blocks(lines: string[]): string {
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = /^\s*(```+|~~~+)\s*([^\s`]*)/.exec(line);
    if (fence) {
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trim().startsWith(fence[1]!); i++) code.push(lines[i]!);
      i++;
      const lang = fence[2] ? { class: `language-${fence[2]}` } : {};
      out.push(
        `<pre><code${lang.class ? ` class="${escapeXml(lang.class)}"` : ''}>${escapeXml(code.join('\n'))}</code></pre>`,
      );
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      out.push(`<h${level}>${inline(heading[2]!)}</h${level}>`);
      i++;
      continue;
    }
    if (/^\s{0,3}>/.test(line)) {
      const quoted: string[] = [];
      for (; i < lines.length && /^\s{0,3}>/.test(lines[i]!); i++) quoted.push(lines[i]!.replace(/^\s{0,3}>\s?/, ''));
      out.push(`<blockquote>${blocks(quoted)}</blockquote>`);
      continue;
    }
    if (line.includes('|') && TABLE_RULE.test(lines[i + 1] ?? '') && (lines[i + 1] ?? '').includes('-')) {
      const cells = (row: string) =>
        row
          .trim()
          .replace(/^\|/, '')
          .replace(/\|$/, '')
          .split('|')
          .map((c) => inline(c.trim()));
      const head = cells(line);
      const rows: string[][] = [];
      for (i += 2; i < lines.length && lines[i]!.includes('|') && lines[i]!.trim() !== ''; i++)
        rows.push(cells(lines[i]!));
      const tr = (row: string[], tag: string) => `<tr>${row.map((c) => `<${tag}>${c}</${tag}>`).join('')}</tr>`;
      out.push(
        `<table><thead>${tr(head, 'th')}</thead>${rows.length > 0 ? `<tbody>${rows.map((r) => tr(r, 'td')).join('')}</tbody>` : ''}</table>`,
      );
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      const ordered = /\d/.test(item[1]!);
      const items: string[][] = [];
      for (; i < lines.length; i++) {
        const next = LIST_ITEM.exec(lines[i]!);
        if (next && /\d/.test(next[1]!) === ordered) items.push([next[2]!]);
        else if (lines[i]!.trim() !== '' && /^\s+/.test(lines[i]!) && items.length > 0)
          items[items.length - 1]!.push(lines[i]!.trim());
        else break;
      }
      const tag = ordered ? 'ol' : 'ul';
      out.push(`<${tag}>${items.map((it) => `<li>${it.map(inline).join('<br/>')}</li>`).join('')}</${tag}>`);
      continue;
    }
    const paragraph: string[] = [];
    for (; i < lines.length && lines[i]!.trim() !== '' && !startsBlock(lines, i); i++) paragraph.push(lines[i]!.trim());
    if (paragraph.length === 0) paragraph.push(lines[i++]!.trim());
    out.push(`<p>${paragraph.map(inline).join('<br/>')}</p>`);
  }
  return out.join('');
}

function startsBlock(lines: string[], i: number): boolean {
  const line = lines[i]!;
  return (
    /^\s*(```|~~~)/.test(line) ||
    /^\s{0,3}#{1,6}\s/.test(line) ||
    /^\s{0,3}>/.test(line) ||
    LIST_ITEM.test(line) ||
    (line.includes('|') && TABLE_RULE.test(lines[i + 1] ?? '') && (lines[i + 1] ?? '').includes('-'))
  );
}

/** Inline Markdown: code spans first (nothing inside them is markup), then links, bold and italics. */
function inline(text: string): string {
  const kept: string[] = [];
  const keep = (html: string) => `\uE002${kept.push(html) - 1}\uE003`;
  let s = text.replace(/\\([\\`*_{}[\]()#+\-.!|~$])/g, (_m, c: string) => keep(escapeXml(c)));
  s = s.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_m, _t, code: string) => keep(`<code>${escapeXml(code.trim())}</code>`));
  s = escapeXml(s);
  s = s.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, label: string, href: string) => {
    const safe = /^(https?:|mailto:|[^:]*$)/i.test(href) ? href : '#';
    return `<a href="${safe}">${label}</a>`;
  });
  s = s.replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '<strong>$2</strong>');
  s = s.replace(/\*(?=\S)([^*]*?\S)\*/g, '<em>$1</em>');
  s = s.replace(/(?<![\w])_(?=\S)([^_]*?\S)_(?![\w])/g, '<em>$1</em>');
  s = s.replace(/~~(?=\S)([\s\S]*?\S)~~/g, '<del>$1</del>');
  return s.replace(/\uE002(\d+)\uE003/g, (_m, n: string) => kept[Number(n)] ?? '');
}
