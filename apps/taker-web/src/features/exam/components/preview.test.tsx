import { PreviewMessages } from '@exam/domain/public-exam';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { buildPublicExam } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

const exam = buildPublicExam({ id: 'draft-1', title: 'Offline Draft', isLive: false, timerEnabled: true });
const QUESTION_TITLE = exam.questions[0]?.title ?? '';

/** The preview endpoint as exam-service answers it: the exam for 'preview-jwt', 401 for anything else. */
function previewServer() {
  const calls = { preview: [] as Array<string | null>, other: 0 };
  server.use(
    http.get('/api/public/exams/:id/preview', ({ request }) => {
      const authorization = request.headers.get('authorization');
      calls.preview.push(authorization);
      return authorization === 'Bearer preview-jwt'
        ? HttpResponse.json(exam)
        : HttpResponse.json({ error: { code: 'UNAUTHENTICATED', message: 'expired' } }, { status: 401 });
    }),
    http.all('/api/attempts*', () => (calls.other++, HttpResponse.json({}))),
    http.all('/api/llm/*', () => (calls.other++, HttpResponse.json({}))),
    http.all('/api/session*', () => (calls.other++, HttpResponse.json({}))),
  );
  return calls;
}

/** The address the creator app opens; the memory router gets the path, the page reads the fragment. */
function openPreviewLink(path: string) {
  window.history.replaceState(null, '', path);
  return renderRoute(path.split('#')[0] ?? path);
}

describe('creator preview', () => {
  afterEach(() => {
    sessionStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it('loads the exam with the preview token from the link, with no timer, proctoring or saving', async () => {
    const calls = previewServer();
    const { user } = openPreviewLink('/exam/draft-1/preview#token=preview-jwt');

    expect(await screen.findByRole('heading', { name: 'Offline Draft' })).toBeInTheDocument();
    expect(calls.preview).toEqual(['Bearer preview-jwt']);
    // The token left the address bar as soon as the page read it.
    expect(window.location.hash).toBe('');
    expect(screen.getByText('Creator Preview')).toBeInTheDocument();
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
    expect(screen.queryByTestId('save-status')).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Answer for Q1'), 'just looking');
    expect(screen.getByTestId('answered-count')).toHaveTextContent('Answered: 1/1');
    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(screen.queryByRole('dialog', { name: 'Attention Required' })).not.toBeInTheDocument();
    expect(calls.other).toBe(0);
  });

  it('refuses a preview link without a token and asks the server nothing', async () => {
    const calls = previewServer();
    openPreviewLink('/exam/draft-1/preview?creator=true');
    expect(await screen.findByRole('alert')).toHaveTextContent(PreviewMessages.missing);
    expect(screen.getByRole('heading', { name: 'Preview not available' })).toBeInTheDocument();
    expect(screen.queryByText(QUESTION_TITLE, { exact: false })).not.toBeInTheDocument();
    expect(calls.preview).toEqual([]);
  });

  it('says the refusal in Spanish when the page speaks Spanish', async () => {
    await i18n.changeLanguage('es');
    previewServer();
    openPreviewLink('/exam/draft-1/preview?creator=true');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Este enlace de vista previa no es válido. Abre la vista previa desde tu panel.',
    );
    expect(screen.getByRole('heading', { name: 'Vista previa no disponible' })).toBeInTheDocument();
  });

  it('refuses the preview when the server refuses the token, and forgets it', async () => {
    const calls = previewServer();
    openPreviewLink('/exam/draft-1/preview#token=expired-jwt');
    expect(await screen.findByRole('alert')).toHaveTextContent(PreviewMessages.invalid);
    expect(screen.queryByRole('heading', { name: 'Offline Draft' })).not.toBeInTheDocument();
    expect(calls.preview).toEqual(['Bearer expired-jwt']);
    expect(sessionStorage.getItem('exam-preview-token:draft-1')).toBeNull();
  });

  it('treats /exam/{id}?creator=true as a candidate without an attempt: off to the details form, no questions', async () => {
    const live = buildPublicExam({ id: 'live-1', title: 'Live Exam', isLive: true });
    const fake = createFakeResultsService({ exam: live });
    server.use(...fake.handlers);
    const { router } = renderRoute('/exam/live-1?creator=true');
    await waitFor(() => expect(router.state.location.pathname).toBe('/taker/credentials'));
    expect(screen.queryByText('Creator Preview')).not.toBeInTheDocument();
    expect(screen.queryByText(live.questions[0]?.title ?? '', { exact: false })).not.toBeInTheDocument();
  });
});
