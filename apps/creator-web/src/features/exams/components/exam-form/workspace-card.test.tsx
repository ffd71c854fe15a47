import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../../testing/factories.ts';
import { examStore, seedExams } from '../../../../testing/handlers.ts';
import { renderApp } from '../../../../testing/render.tsx';

const lastBody = () => examStore.writes.at(-1)?.body as { codingWorkspace?: Record<string, unknown> };

/** A published exam with a workspace expecting 12 candidates, open in the editor. */
async function openEditor() {
  seedExams(
    makeExam({
      id: 'exam-ws',
      title: 'Pre-started',
      isDraft: false,
      codingWorkspace: {
        enabled: true,
        saveFilesInResults: true,
        workspaceType: 'vscode',
        allowPackageRegistries: false,
        expectedCandidates: 12,
      },
    }),
  );
  signInAs();
  const { user } = renderApp('/creator/edit-exam/exam-ws?type=published');
  // The first render of the editor loads its lazy chunks: slow on a busy machine.
  const field = await screen.findByLabelText('Expected Candidates', {}, { timeout: 15_000 });
  return { user, field };
}

describe('the workspace card', () => {
  it('shows the expected candidates with what they do, and sends a new number', async () => {
    const { user, field } = await openEditor();
    expect(field).toHaveValue(12);
    expect(field).toHaveAccessibleDescription(/started before the exam opens/);
    await user.clear(field);
    await user.type(field, '40');
    await user.click(screen.getByRole('button', { name: 'Update Published Exam' }));
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastBody().codingWorkspace).toMatchObject({ enabled: true, expectedCandidates: 40 });
  });

  it('sends an emptied field as null (only the roster counts then)', async () => {
    const { user, field } = await openEditor();
    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Update Published Exam' }));
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastBody().codingWorkspace).toMatchObject({ expectedCandidates: null });
  });
});
