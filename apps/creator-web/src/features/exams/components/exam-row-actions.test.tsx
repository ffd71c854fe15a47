import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../../i18n/index.ts';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { examStore, seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

/** The dashboard with one published and one draft exam; the rows of each table. */
async function dashboard() {
  seedExams(
    makeExam({ title: 'Midterm', isDraft: false, isLive: true, publishedAt: '2025-03-04T10:00:00.000Z' }),
    makeExam({ title: 'Quiz draft', isDraft: true }),
  );
  signInAs();
  const view = renderApp('/creator/dashboard');
  const published = within(await screen.findByRole('table', { name: /^(Published Exams|Exámenes publicados)$/ }));
  const drafts = within(screen.getByRole('table', { name: /^(Draft Exams|Borradores)$/ }));
  return {
    ...view,
    publishedRow: published.getByRole('row', { name: /Midterm/ }),
    draftRow: drafts.getByRole('row', { name: /Quiz draft/ }),
  };
}

/** Every button and link of a row: its accessible name and the text a sighted user reads on it. */
function controlsOf(row: HTMLElement) {
  return [...within(row).queryAllByRole('button'), ...within(row).queryAllByRole('link')].map((control) => ({
    name: control.getAttribute('aria-label') ?? control.textContent?.trim(),
    text: control.textContent?.trim(),
  }));
}

describe('exam row actions', () => {
  it('labels every action of a published row with visible text that is also its name', async () => {
    const { publishedRow } = await dashboard();
    const controls = controlsOf(publishedRow);
    expect(controls.map((c) => c.text).sort()).toEqual(['Copy link', 'Edit', 'More actions', 'Results']);
    for (const control of controls) expect(control.name).toBe(control.text);
    // The verb is the name; the row's exam is the description, so a screen reader hears which exam.
    expect(within(publishedRow).getByRole('link', { name: 'Edit' })).toHaveAccessibleDescription('Midterm');
    expect(within(publishedRow).getByRole('button', { name: 'More actions' })).toHaveAccessibleDescription('Midterm');
  });

  it('labels every action of a draft row, Edit and Preview outside the menu', async () => {
    const { draftRow } = await dashboard();
    const controls = controlsOf(draftRow);
    expect(controls.map((c) => c.text).sort()).toEqual(['Edit', 'More actions', 'Preview']);
    for (const control of controls) expect(control.name).toBe(control.text);
    expect(within(draftRow).getByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      `/creator/edit-exam/${examStore.exams[1]?.id}?type=draft`,
    );
  });

  it('lists the rest of a published row in a labelled menu, in order', async () => {
    const { publishedRow, user } = await dashboard();
    await user.click(within(publishedRow).getByRole('button', { name: 'More actions' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent?.trim()),
    ).toEqual([
      'Live view',
      'Preview',
      'Roster & invitations',
      'Accommodations',
      'Export QTI',
      'Export Moodle XML',
      'Delete',
    ]);
    const id = examStore.exams[0]?.id;
    expect(within(menu).getByRole('menuitem', { name: 'Live view' })).toHaveAttribute(
      'href',
      `/creator/exam-live/${id}`,
    );
    expect(within(menu).getByRole('menuitem', { name: 'Accommodations' })).toHaveAttribute(
      'href',
      `/creator/exam-accommodations/${id}`,
    );
  });

  it('opens the menu from the keyboard, moves with the arrow keys, and gives focus back on Escape', async () => {
    const { draftRow, user } = await dashboard();
    const trigger = within(draftRow).getByRole('button', { name: 'More actions' });
    expect(trigger).toHaveAttribute('aria-haspopup', 'menu');
    expect(trigger).toHaveAttribute('aria-expanded', 'false');

    trigger.focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent?.trim())).toEqual([
      'Import questions into this draft',
      'Accommodations',
      'Export QTI',
      'Export Moodle XML',
      'Delete',
    ]);
    await waitFor(() => expect(items[0]).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    expect(items[1]).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}');
    // The menu wraps no further than its ends: up from the first item stays there.
    expect(items[0]).toHaveFocus();
    await user.keyboard('{End}');
    expect(items[4]).toHaveFocus();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    expect(trigger).toHaveFocus();
  });

  it('runs the chosen item with Enter: Delete asks first, and Cancel puts focus back on the row', async () => {
    const { draftRow, user } = await dashboard();
    const trigger = within(draftRow).getByRole('button', { name: 'More actions' });
    trigger.focus();
    await user.keyboard('{Enter}');
    const items = within(await screen.findByRole('menu')).getAllByRole('menuitem');
    await waitFor(() => expect(items[0]).toHaveFocus());
    await user.keyboard('{End}');
    expect(items[4]).toHaveFocus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete exam?' });
    expect(dialog).toHaveTextContent('Are you sure you want to delete the draft "Quiz draft"?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await waitFor(() => expect(trigger).toHaveFocus());
    expect(examStore.exams).toHaveLength(2);
  });

  it("previews a draft from its row's Preview button", async () => {
    const { draftRow, user } = await dashboard();
    server.use(
      http.post('*/api/exams/:id/preview-token', () =>
        HttpResponse.json({ token: 'draft.jwt', expiresAt: '2030-01-01T00:15:00.000Z' }, { status: 201 }),
      ),
    );
    const tab = { opener: {} as unknown, location: { replace: vi.fn() }, close: vi.fn() };
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    await user.click(within(draftRow).getByRole('button', { name: 'Preview' }));
    await waitFor(() =>
      expect(tab.location.replace).toHaveBeenCalledWith(
        `http://taker.test/exam/${examStore.exams[1]?.id}/preview#token=draft.jwt`,
      ),
    );
  });

  it('speaks Spanish in a Spanish browser, the menu included', async () => {
    await changeLanguage('es');
    const { publishedRow, draftRow, user } = await dashboard();
    expect(
      controlsOf(publishedRow)
        .map((c) => c.text)
        .sort(),
    ).toEqual(['Copiar enlace', 'Editar', 'Más acciones', 'Resultados']);
    expect(
      controlsOf(draftRow)
        .map((c) => c.text)
        .sort(),
    ).toEqual(['Editar', 'Más acciones', 'Vista previa']);
    await user.click(within(draftRow).getByRole('button', { name: 'Más acciones' }));
    expect(
      within(await screen.findByRole('menu'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent?.trim()),
    ).toEqual([
      'Importar preguntas a este borrador',
      'Adaptaciones',
      'Exportar QTI',
      'Exportar Moodle XML',
      'Eliminar',
    ]);
  });
});
