import { describe, expect, it } from 'vitest';
import { graderAction, isTypingTarget } from './grader-keys.ts';

const press = (key: string, target: EventTarget | null = document.body, mods: Partial<KeyboardEvent> = {}) =>
  graderAction({ key, ctrlKey: false, metaKey: false, altKey: false, target, ...mods });

function element<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  document.body.append(node);
  return node;
}

describe("the grader's keys", () => {
  it('maps letters, arrows and digits to actions, whatever the case', () => {
    expect(press('j')).toEqual({ kind: 'next' });
    expect(press('J')).toEqual({ kind: 'next' });
    expect(press('ArrowDown')).toEqual({ kind: 'next' });
    expect(press('k')).toEqual({ kind: 'previous' });
    expect(press('ArrowUp')).toEqual({ kind: 'previous' });
    expect(press('1')).toEqual({ kind: 'criterion', index: 0 });
    expect(press('9')).toEqual({ kind: 'criterion', index: 8 });
    expect(press('0')).toEqual({ kind: 'zero' });
    expect(press('f')).toEqual({ kind: 'full' });
    expect(press('a')).toEqual({ kind: 'accept' });
    expect(press('n')).toEqual({ kind: 'names' });
    expect(press('Enter')).toEqual({ kind: 'save' });
    expect(press('x')).toBeNull();
  });

  it('leaves keys typed into a field alone, except Ctrl or Cmd+Enter, which saves', () => {
    const textarea = element('textarea');
    const points = element('input', { type: 'number' });
    expect(press('j', textarea)).toBeNull();
    expect(press('1', points)).toBeNull();
    expect(press('Enter', textarea)).toBeNull();
    expect(press('Enter', textarea, { ctrlKey: true })).toEqual({ kind: 'save' });
    expect(press('Enter', points, { metaKey: true })).toEqual({ kind: 'save' });
    expect(isTypingTarget(element('input', { type: 'checkbox' }))).toBe(false);
    expect(isTypingTarget(element('div', { role: 'listbox' }))).toBe(true);
  });

  it('lets Enter press a focused button, and leaves browser shortcuts alone', () => {
    expect(press('Enter', element('button'))).toBeNull();
    expect(press('Enter', element('input', { type: 'checkbox' }))).toEqual({ kind: 'save' });
    expect(press('f', document.body, { ctrlKey: true })).toBeNull();
    expect(press('a', document.body, { metaKey: true })).toBeNull();
  });
});
