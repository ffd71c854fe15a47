import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { codeBlockLabel, Markdown } from './markdown.tsx';

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

describe('Markdown', () => {
  it('renders a fenced code block with its language label and its text', () => {
    render(<Markdown>{'Try this:\n\n```python\nprint("hi")\n```'}</Markdown>);
    const block = screen.getByTestId('code-block');
    expect(within(block).getByText('python')).toBeInTheDocument();
    expect(block.querySelector('pre')).toHaveTextContent('print("hi")');
  });

  it("labels a fence without a usable language 'code'", () => {
    render(<Markdown>{'```js some meta\nlet a = 1;\n```\n\n```\nplain\n```'}</Markdown>);
    const labels = screen.getAllByTestId('code-block').map((block) => block.querySelector('figcaption')?.textContent);
    expect(labels).toEqual(['code', 'code']);
  });

  it('renders GitHub-flavoured tables and never raw HTML', () => {
    render(<Markdown>{'| a | b |\n|---|---|\n| 1 | 2 |\n\n<img src=x onerror="alert(1)">'}</Markdown>);
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(document.querySelector('img')).toBeNull();
  });
});
