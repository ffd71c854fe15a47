import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * A small element tree over fast-xml-parser's ordered output, so the readers can walk item bodies (mixed
 * content: text between elements) in document order. Names keep their prefix; `local` drops it.
 */
export type XmlNode = { name: string; attrs: Record<string, string>; children: XmlChild[] };
export type XmlChild = XmlNode | string;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: '#comment',
});

type Ordered = Record<string, unknown>;

function toChildren(list: Ordered[]): XmlChild[] {
  const out: XmlChild[] = [];
  for (const entry of list) {
    for (const key of Object.keys(entry)) {
      if (key === ':@' || key === '#comment') continue;
      const value = entry[key];
      if (key === '#text') {
        out.push(String(value));
        continue;
      }
      const attrs = (entry[':@'] as Record<string, unknown> | undefined) ?? {};
      out.push({
        name: key,
        attrs: Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, String(v)])),
        children: toChildren(value as Ordered[]),
      });
    }
  }
  return out;
}

/** Parses a document and returns its root element; throws with the parser's reason when it is not XML. */
export function parseXml(text: string): XmlNode {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Error(`Not well-formed XML (line ${valid.err.line}): ${valid.err.msg}`);
  const root = toChildren(parser.parse(text) as Ordered[]).find((c): c is XmlNode => typeof c !== 'string');
  if (!root) throw new Error('The XML document has no root element');
  return root;
}

export const local = (name: string) => name.slice(name.indexOf(':') + 1);
export const elements = (node: XmlNode) => node.children.filter((c): c is XmlNode => typeof c !== 'string');
export const child = (node: XmlNode, name: string) => elements(node).find((c) => local(c.name) === name);
export const childrenNamed = (node: XmlNode, name: string) => elements(node).filter((c) => local(c.name) === name);

/** Every descendant element with that local name, in document order. */
export function descendants(node: XmlNode, name: string): XmlNode[] {
  const out: XmlNode[] = [];
  for (const c of elements(node)) {
    if (local(c.name) === name) out.push(c);
    out.push(...descendants(c, name));
  }
  return out;
}

/** The text content of an element (all descendant text, in order). */
export function textOf(node: XmlNode | undefined): string {
  if (!node) return '';
  return node.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** Builds one element as text; `children` are already XML (use escapeXml for text). */
export function el(name: string, attrs: Record<string, string | number | boolean | undefined>, ...children: string[]) {
  const a = Object.entries(attrs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('');
  return children.length === 0 ? `<${name}${a}/>` : `<${name}${a}>${children.join('')}</${name}>`;
}
