import { capabilitiesOf } from '@exam/domain/roles';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../../testing/factories.ts';
import { examStore, seedExams } from '../../../../testing/handlers.ts';
import { renderApp } from '../../../../testing/render.tsx';

const retention = () => screen.findByRole('group', { name: "Keeping candidates' data" });
const lastBody = () => examStore.writes.at(-1)?.body as { retentionDays?: number | null } | undefined;

describe('the retention period in the exam editor', () => {
  it('lets the owner choose a number of days and saves it', async () => {
    const exam = makeExam({ isDraft: true, capabilities: capabilitiesOf({ role: 'owner', mayRelease: true }) });
    seedExams(exam);
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}?type=draft`);
    const group = await retention();
    expect(group).toBeEnabled();
    expect(within(group).queryByText(/Only the exam's owner/)).not.toBeInTheDocument();
    await user.click(within(group).getByRole('radio', { name: /Delete a number of days/ }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(lastBody()?.retentionDays).toBe(365));
  });

  it('is disabled for an editor, says only the owner sets it, and saves the stored period unchanged', async () => {
    const exam = makeExam({
      isDraft: true,
      retentionDays: 90,
      capabilities: capabilitiesOf({ role: 'editor', mayRelease: false }),
    });
    seedExams(exam);
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}?type=draft`);
    const group = await retention();
    expect(group).toBeDisabled();
    expect(group).toHaveAccessibleDescription(/Only the exam's owner can change how long/);
    const radios = within(group).getAllByRole('radio');
    for (const radio of radios) expect(radio).toBeDisabled();
    expect(within(group).getByRole('spinbutton')).toHaveValue(90);
    await user.click(within(group).getByRole('radio', { name: /Keep until deleted/ }));
    expect(within(group).getByRole('radio', { name: /Delete a number of days/ })).toBeChecked();
    await user.type(screen.getByLabelText('Exam Title'), ' (edited)');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(lastBody()?.retentionDays).toBe(90));
  });
});
