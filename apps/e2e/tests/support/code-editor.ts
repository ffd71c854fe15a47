import { expect, type Page } from '@playwright/test';

/**
 * Replaces the whole content of a CodeMirror editor (named by its aria-label) with `code`. The text is
 * inserted in one input event, as a paste would be, so the editor's auto-indent and bracket closing do not
 * rewrite what a keystroke-by-keystroke typing would.
 */
export async function replaceCode(page: Page, label: string, code: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: label });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
  await expect(editor).toContainText(code.split('\n')[0] ?? '');
}
