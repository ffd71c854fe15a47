import type { TranscriptMessage } from '@exam/domain/internal';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { fakeResultService } from '../../../testing/fake-result-service.ts';
import { renderApp } from '../../../testing/render.tsx';
import { makeResultDetail } from '../../../testing/result-factories.ts';
import { server } from '../../../testing/server.ts';

const message = (overrides: Partial<TranscriptMessage>): TranscriptMessage => ({
  id: overrides.id ?? 'm',
  role: 'assistant',
  content: '',
  questionIndex: 0,
  isError: false,
  files: [],
  createdAt: '2030-01-01T10:00:00.000Z',
  ...overrides,
});

describe("the candidate's conversation on the result page", () => {
  it('marks the planted turns with their error and whether the reply contained it', async () => {
    const detail = makeResultDetail();
    // Ahead of the fake result service's own (empty) transcript: the first matching handler answers.
    server.use(
      http.get('*/api/llm/attempts/:attemptId/transcript', () =>
        HttpResponse.json({
          messages: [
            message({ id: 'u1', role: 'user', content: 'Which measure resists outliers?' }),
            message({
              id: 'a1',
              content: 'I am fairly sure it is the Mean.',
              planted: { questionIndex: 0, error: 'Mean', verified: true },
            }),
            message({ id: 'u2', role: 'user', content: 'And the standard error?', questionIndex: 1 }),
            message({
              id: 'a2',
              content: 'Think about sigma over root n.',
              questionIndex: 1,
              planted: { questionIndex: 1, error: '3.5', verified: false },
            }),
            message({ id: 'a3', content: 'An ordinary reply.', planted: null }),
          ],
        }),
      ),
      ...fakeResultService(detail).handlers,
    );
    signInAs();
    renderApp(`/creator/result/${detail.id}`);
    const conversation = await screen.findByRole('list', { name: 'Conversation' });
    const notes = within(conversation)
      .getAllByRole('note')
      .map((note) => note.textContent);
    expect(notes).toEqual([
      'Planted error: Mean — the reply contained it (counted as planted).',
      'Planted error: 3.5 — the reply did not contain it (not counted).',
    ]);
  });
});
