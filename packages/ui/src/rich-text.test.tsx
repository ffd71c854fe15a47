import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { InlineRichText, isPlainText, RichText } from './rich-text.tsx';
import RichTextRenderer, { codeBlockLabel, safeUrl, safeUrlFor } from './rich-text-renderer.tsx';

/** The renderer is lazy: wait for its first element instead of the plain-text fallback. */
async function renderRich(text: string) {
  const view = render(<RichText testId="rich">{text}</RichText>);
  await waitFor(() => expect(view.container.querySelector('[data-rich-text] > p.whitespace-pre-wrap')).toBeNull());
  return screen.getByTestId('rich');
}

describe('codeBlockLabel', () => {
  it('uses the fence info string when it is under 20 characters without spaces', () => {
    expect(codeBlockLabel('python')).toBe('python');
    expect(codeBlockLabel('x'.repeat(19))).toBe('x'.repeat(19));
  });

  it("falls back to 'code' when the info string is empty, has a space or is 20 characters or longer", () => {
    expect(codeBlockLabel('')).toBe('code');
    expect(codeBlockLabel('python title="a"')).toBe('code');
    expect(codeBlockLabel('x'.repeat(20))).toBe('code');
  });
});

describe('safeUrl', () => {
  it('keeps http(s), mailto and relative URLs', () => {
    for (const url of [
      'https://example.com/a?b#c',
      'http://x.org',
      'mailto:a@b.c',
      '/docs',
      'notes.md',
      '#q2',
      './a:b',
    ])
      expect(safeUrl(url)).toBe(url);
  });

  it('drops every other scheme, however it is spelled', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      'file:///etc/passwd',
    ])
      expect(safeUrl(url)).toBe('');
  });
});

describe('safeUrlFor', () => {
  it('keeps a raster picture carried in the text as an image source, and nothing else of data:', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    expect(safeUrlFor(png, 'src')).toBe(png);
    expect(safeUrlFor(png, 'href')).toBe('');
    expect(safeUrlFor('data:image/svg+xml;base64,PHN2Zz4=', 'src')).toBe('');
    expect(safeUrlFor('data:image/png;base64,<script>', 'src')).toBe('');
    expect(safeUrlFor('https://x.org/a.png', 'src')).toBe('https://x.org/a.png');
  });

  it('shows such a picture in rendered text', async () => {
    const rich = await renderRich('The dot:\n\n![dot](data:image/png;base64,iVBORw0KGgo=)');
    expect(rich.querySelector('img')?.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
  });
});

describe('RichText', () => {
  it('shows plain text as typed, line breaks included', async () => {
    const rich = await renderRich('Line one\nLine two\n\nA second paragraph, costing $5 and $10.');
    expect(rich.querySelectorAll('p')).toHaveLength(2);
    expect(rich.querySelector('br')).not.toBeNull();
    expect(rich).toHaveTextContent('A second paragraph, costing $5 and $10.');
    expect(rich.querySelector('.katex')).toBeNull();
  });

  it('never renders raw HTML: a script or an image with onerror stays text', async () => {
    const rich = await renderRich('<script>window.hacked = 1</script>\n\nHi <img src=x onerror="alert(1)"> there');
    expect(rich.querySelector('script')).toBeNull();
    expect(rich.querySelector('img')).toBeNull();
    expect(rich.querySelector('[onerror]')).toBeNull();
    expect(rich).toHaveTextContent('<img src=x onerror="alert(1)">');
    expect((window as { hacked?: number }).hacked).toBeUndefined();
  });

  it('does not make a link of a javascript: or data: URL', async () => {
    const rich = await renderRich('[x](javascript:alert(1)) and [y](data:text/html,hi) and <javascript:alert(2)>');
    expect(within(rich).queryAllByRole('link')).toHaveLength(0);
    expect(rich).toHaveTextContent('x and y and');
  });

  it('opens safe links in a new tab without an opener', async () => {
    const rich = await renderRich('See [the docs](https://example.com/docs).');
    const link = within(rich).getByRole('link', { name: 'the docs' });
    expect(link).toHaveAttribute('href', 'https://example.com/docs');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('never loads an image: it becomes a link named by its alt text, and an unsafe one plain text', async () => {
    const rich = await renderRich('![a graph](https://example.com/g.png) ![bad](javascript:alert(1))');
    expect(rich.querySelector('img')).toBeNull();
    expect(within(rich).getByRole('link', { name: 'Image: a graph' })).toHaveAttribute(
      'href',
      'https://example.com/g.png',
    );
    expect(within(rich).queryByRole('link', { name: 'Image: bad' })).toBeNull();
    expect(rich).toHaveTextContent('Image: bad');
  });

  it("highlights a fenced code block with the code editor's highlighter, under its language label", async () => {
    const rich = await renderRich('Try this:\n\n```python\ndef f(x):\n    return x  # done\n```');
    const block = within(rich).getByTestId('code-block');
    expect(within(block).getByText('python')).toBeInTheDocument();
    await waitFor(() => expect(block.querySelector('pre')).toHaveAttribute('data-highlighted', 'true'));
    const pre = block.querySelector('pre');
    expect(pre).toHaveTextContent('def f(x): return x # done');
    // defaultHighlightStyle gives keywords and comments classes of their own (generated names).
    const keyword = [...(pre?.querySelectorAll('span') ?? [])].find((s) => s.textContent === 'def');
    const comment = [...(pre?.querySelectorAll('span') ?? [])].find((s) => s.textContent === '# done');
    expect(keyword?.className).toBeTruthy();
    expect(comment?.className).toBeTruthy();
    expect(comment?.className).not.toBe(keyword?.className);
  });

  it("labels a fence without a usable language 'code' and leaves an unknown language uncoloured", async () => {
    const rich = await renderRich('```js some meta\nlet a = 1;\n```\n\n```\nplain\n```\n\n```haskell\nmain = 1\n```');
    const blocks = within(rich).getAllByTestId('code-block');
    expect(blocks.map((b) => b.querySelector('figcaption')?.textContent)).toEqual(['code', 'code', 'haskell']);
    await waitFor(() => expect(blocks[0]?.querySelector('pre')).toHaveAttribute('data-highlighted', 'true'));
    expect(blocks[2]?.querySelector('pre')).not.toHaveAttribute('data-highlighted');
    expect(blocks[2]?.querySelector('span')).toBeNull();
  });

  it('renders $$ math with KaTeX, inline and displayed, and an unparsable formula as an error', async () => {
    const rich = await renderRich('Energy $$E = mc^2$$ here.\n\n$$\n\\frac{a}{b}\n$$\n\nBad $$\\frac{$$');
    await waitFor(() => expect(rich.querySelector('.katex')).not.toBeNull());
    expect(rich.querySelectorAll('.katex')).toHaveLength(2);
    expect(rich.querySelector('.katex-display .katex annotation')).toHaveTextContent('\\frac{a}{b}');
    expect(rich.querySelector('p .katex annotation')).toHaveTextContent('E = mc^2');
    expect(rich.querySelector('.katex-error')).not.toBeNull();
  });

  it('does not let a formula link anywhere (\\href is not trusted)', async () => {
    const rich = await renderRich('$$\\href{javascript:alert(1)}{x}$$');
    await waitFor(() => expect(rich.querySelector('.katex, .katex-error')).not.toBeNull());
    expect(rich.querySelector('a')).toBeNull();
  });

  it('renders GitHub-flavoured tables', async () => {
    const rich = await renderRich('| a | b |\n|---|---|\n| 1 | 2 |');
    expect(within(rich).getByRole('table')).toBeInTheDocument();
  });
});

describe('InlineRichText', () => {
  it('renders emphasis, code and math in one line, but nothing that starts a block', async () => {
    render(
      <ul>
        <li>
          <InlineRichText testId="a">{'**bold** `x < y` $$x^2$$'}</InlineRichText>
        </li>
        <li>
          <InlineRichText testId="b">{'1. not a list'}</InlineRichText>
        </li>
        <li>
          <InlineRichText testId="c">{'# not a heading'}</InlineRichText>
        </li>
      </ul>,
    );
    const a = screen.getByTestId('a');
    await waitFor(() => expect(a.querySelector('strong')).toHaveTextContent('bold'));
    expect(a.querySelector('code')).toHaveTextContent('x < y');
    await waitFor(() => expect(a.querySelector('.katex')).not.toBeNull());
    expect(a.querySelector('p')).toBeNull();
    expect(screen.getByTestId('b').querySelector('ol')).toBeNull();
    expect(screen.getByTestId('b')).toHaveTextContent('1. not a list');
    expect(screen.getByTestId('c').querySelector('h1')).toBeNull();
    expect(screen.getByTestId('c')).toHaveTextContent('# not a heading');
  });
});

describe('plain text, drawn without the Markdown renderer', () => {
  const plain = [
    'What is the capital of France?',
    "Line one\nLine two\n\nA second paragraph, with commas, quotes ('like these') and 50% more.",
    '\nLeading and trailing blank lines\n\n\n\nand several between paragraphs.\n',
    'Größte Stadt? ¿Cuál es la respuesta? 3.14 is not a list, nor is 2024 or - in a sentence.',
  ];

  it.each(plain)('draws %j at once, exactly as the renderer would', (text) => {
    expect(isPlainText(text)).toBe(true);
    const drawn = render(<RichText>{text}</RichText>).container.querySelector('[data-rich-text]')!;
    // On the first render, with no lazy chunk to wait for: no fallback.
    expect(drawn.querySelector('p.whitespace-pre-wrap')).toBeNull();
    const rendered = render(<RichTextRenderer text={text} />).container;
    expect(drawn.innerHTML).toBe(rendered.innerHTML);
  });

  it.each([
    '**bold**',
    'a_b',
    'See https://example.com',
    'www.example.com',
    'mail me@example.com',
    '- item',
    '1. item',
    '2) item',
    '# heading',
    '> quote',
    '    indented code',
    'tab\there',
    'Title\n===',
    'Title\n---',
    'costs $5',
    'a &amp; b',
    'x < y',
    '[link](x)',
    'trailing space ',
    'a | b',
  ])('sends %j to the renderer', (text) => {
    expect(isPlainText(text)).toBe(false);
  });

  it('keeps a one-line option label as it is, inside its span', () => {
    render(<InlineRichText testId="label">{'Paris'}</InlineRichText>);
    expect(screen.getByTestId('label').innerHTML).toBe('Paris');
  });
});
