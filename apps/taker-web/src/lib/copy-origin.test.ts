import { afterEach, describe, expect, it } from 'vitest';
import { copyOrigin, isInAssistantReply } from './copy-origin.ts';

function page() {
  document.body.innerHTML = `
    <section data-role="user"><p id="asked">How do I reverse a string?</p></section>
    <section data-role="assistant"><p id="reply">Use slicing.</p><button id="copy">Copy</button></section>
    <textarea id="answer">my own words</textarea>`;
  const byId = (id: string) => document.getElementById(id)!;
  return { asked: byId('asked'), reply: byId('reply'), copy: byId('copy'), answer: byId('answer') };
}

function select(node: Node) {
  const range = document.createRange();
  range.selectNodeContents(node);
  window.getSelection()?.removeAllRanges();
  window.getSelection()?.addRange(range);
}

afterEach(() => {
  window.getSelection()?.removeAllRanges();
  document.body.innerHTML = '';
});

describe('where a copy was made', () => {
  it('is an assistant reply when the copy comes from a reply’s Copy button or a selection inside a reply', () => {
    const { reply, copy } = page();
    expect(copyOrigin(copy)).toBe('assistant');
    select(reply.firstChild!);
    expect(copyOrigin(document.body)).toBe('assistant');
    expect(isInAssistantReply(reply.firstChild)).toBe(true);
  });

  it('is the exam elsewhere: the candidate’s own message, or an answer field even while a reply is selected', () => {
    const { asked, reply, answer } = page();
    select(asked.firstChild!);
    expect(copyOrigin(document.body)).toBe('pasted');
    select(reply.firstChild!);
    expect(copyOrigin(answer)).toBe('pasted');
  });
});
