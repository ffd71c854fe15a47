/**
 * The formatted essay editor's toolbar (docs/product.md#question-types): each button writes Markdown around the
 * selection, so the answer stays plain text that the word count, the timeline's edit operations and the grader's
 * renderer all read as they read any other answer.
 */
export const MARKDOWN_FORMATS = ['bold', 'italic', 'list', 'code'] as const;
export type MarkdownFormat = (typeof MARKDOWN_FORMATS)[number];

export type TextSelection = { start: number; end: number };
export type FormattedText = { value: string; selection: TextSelection };

/** `marker` on both sides of the selection; on an empty selection, the caret lands between the two. */
function wrap(value: string, { start, end }: TextSelection, marker: string): FormattedText {
  const inner = value.slice(start, end);
  return {
    value: `${value.slice(0, start)}${marker}${inner}${marker}${value.slice(end)}`,
    selection: { start: start + marker.length, end: end + marker.length },
  };
}

/** Every line the selection touches starts with "- "; when each already does, the markers are taken off instead. */
function toggleList(value: string, { start, end }: TextSelection): FormattedText {
  const from = value.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = value.indexOf('\n', end);
  const to = lineEnd === -1 ? value.length : lineEnd;
  const lines = value.slice(from, to).split('\n');
  const listed = lines.every((line) => line.startsWith('- '));
  const block = lines.map((line) => (listed ? line.slice(2) : `- ${line}`)).join('\n');
  const next = `${value.slice(0, from)}${block}${value.slice(to)}`;
  return {
    value: next,
    selection:
      start === end
        ? { start: from + block.length, end: from + block.length }
        : { start: from, end: from + block.length },
  };
}

/** Inline code for part of a line; a fenced block, on lines of its own, for a selection of several lines. */
function code(value: string, selection: TextSelection): FormattedText {
  const inner = value.slice(selection.start, selection.end);
  if (!inner.includes('\n')) return wrap(value, selection, '`');
  const before = selection.start === 0 || value[selection.start - 1] === '\n' ? '' : '\n';
  const after = selection.end === value.length || value[selection.end] === '\n' ? '' : '\n';
  const open = `${before}\`\`\`\n`;
  return {
    value: `${value.slice(0, selection.start)}${open}${inner}\n\`\`\`${after}${value.slice(selection.end)}`,
    selection: { start: selection.start + open.length, end: selection.start + open.length + inner.length },
  };
}

/** The text after a toolbar button (or its shortcut), and what is selected then. */
export function applyFormat(value: string, selection: TextSelection, format: MarkdownFormat): FormattedText {
  const clamped = {
    start: Math.max(0, Math.min(selection.start, value.length)),
    end: Math.max(0, Math.min(Math.max(selection.start, selection.end), value.length)),
  };
  switch (format) {
    case 'bold':
      return wrap(value, clamped, '**');
    case 'italic':
      return wrap(value, clamped, '_');
    case 'list':
      return toggleList(value, clamped);
    case 'code':
      return code(value, clamped);
  }
}
