import { LlmMessages, TestChatRequestSchema, type ChatStreamEvent, type TestChatRequest } from '@exam/domain/llm';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';
import { historyOf } from '../hooks/use-test-chat.ts';

const encoder = new TextEncoder();

/** A text/event-stream body the test writes frame by frame. */
function controlledStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    stream,
    push: (event: ChatStreamEvent) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`)),
    close: () => controller.close(),
  };
}
const done: ChatStreamEvent = {
  type: 'done',
  messageId: null,
  usage: { inputTokens: 4, outputTokens: 2, estimated: false },
};

function fakeTestChat(reply: (body: TestChatRequest) => Response) {
  const requests: Array<{ body: TestChatRequest; authorization: string | null }> = [];
  server.use(
    http.post('*/api/llm/test-chat', async ({ request }) => {
      const body = TestChatRequestSchema.parse(await request.json());
      requests.push({ body, authorization: request.headers.get('authorization') });
      return reply(body);
    }),
  );
  return requests;
}

const aiExam = () =>
  makeExam({
    aiSettings: {
      enabled: true,
      provider: 'anthropic',
      model: 'claude-sonnet-4',
      startMessage: 'Hello tester!',
      hasApiKey: true,
      apiKeyLast4: 'abcd',
    },
  });

async function openTestAssistant(exam = aiExam()) {
  seedExams(exam);
  const token = signInAs();
  const view = renderApp(`/creator/edit-exam/${exam.id}`);
  await view.user.click(await screen.findByRole('button', { name: 'Test Assistant' }));
  const dialog = await screen.findByRole('dialog', { name: 'Test Assistant' });
  return { ...view, exam, token, dialog };
}

const bubbles = (dialog: HTMLElement) =>
  within(within(dialog).getByRole('log', { name: 'Test conversation' })).getAllByTestId('chat-message');

describe('Test Assistant in the exam editor', () => {
  it('sends the conversation to the gateway and shows the streamed reply as it arrives', async () => {
    const first = controlledStream();
    const requests = fakeTestChat(
      () => new HttpResponse(first.stream, { headers: { 'content-type': 'text/event-stream' } }),
    );
    const { user, exam, token, dialog } = await openTestAssistant();
    expect(bubbles(dialog)[0]).toHaveTextContent('Hello tester!');

    await user.type(
      within(dialog).getByRole('textbox', { name: 'Message to test the assistant' }),
      'What is Big-O?{Enter}',
    );
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]).toEqual({
      body: expect.objectContaining({
        examId: exam.id,
        messages: [{ role: 'user', content: 'What is Big-O?' }],
        questionIndex: null,
      }),
      authorization: `Bearer ${token}`,
    });
    expect(within(dialog).getByRole('status', { name: 'Assistant is typing' })).toBeInTheDocument();

    first.push({ type: 'delta', text: 'It describes ' });
    await waitFor(() => expect(bubbles(dialog)[2]).toHaveTextContent('It describes'));
    first.push({ type: 'delta', text: '`growth`.' });
    first.push(done);
    first.close();
    await waitFor(() =>
      expect(within(bubbles(dialog)[2] as HTMLElement).getByRole('button', { name: 'Copy' })).toBeInTheDocument(),
    );
    expect((await within(bubbles(dialog)[2] as HTMLElement).findByText('growth')).tagName).toBe('CODE');

    const second = controlledStream();
    server.use(
      http.post('*/api/llm/test-chat', async ({ request }) => {
        requests.push({
          body: TestChatRequestSchema.parse(await request.json()),
          authorization: request.headers.get('authorization'),
        });
        second.push({ type: 'delta', text: 'Sure.' });
        second.push(done);
        second.close();
        return new HttpResponse(second.stream, { headers: { 'content-type': 'text/event-stream' } });
      }),
    );
    await user.type(within(dialog).getByRole('textbox', { name: 'Message to test the assistant' }), 'And O(n)?{Enter}');
    await waitFor(() => expect(bubbles(dialog)).toHaveLength(5));
    expect(requests[1]?.body.messages).toEqual([
      { role: 'user', content: 'What is Big-O?' },
      { role: 'assistant', content: 'It describes `growth`.' },
      { role: 'user', content: 'And O(n)?' },
    ]);
  });

  it('shows a reply the guardrail stopped with what arrived and why it stopped', async () => {
    const reply = controlledStream();
    fakeTestChat(() => new HttpResponse(reply.stream, { headers: { 'content-type': 'text/event-stream' } }));
    const { user, dialog } = await openTestAssistant();
    await user.type(within(dialog).getByRole('textbox', { name: 'Message to test the assistant' }), 'Answer Q1{Enter}');
    reply.push({ type: 'delta', text: 'Think about spread.' });
    reply.push({ type: 'withheld', messageId: null, message: LlmMessages.answerWithheld });
    reply.close();
    await waitFor(() => expect(bubbles(dialog)[2]).toHaveTextContent(LlmMessages.answerWithheld));
    expect(bubbles(dialog)[2]).toHaveTextContent('Think about spread.');
    expect(bubbles(dialog)[2]).not.toHaveAttribute('data-error');
  });

  it("shows the gateway's message as the reply when the configuration is incomplete", async () => {
    const message = `${LlmMessages.configurationIncomplete} API key missing.`;
    fakeTestChat(() => HttpResponse.json({ error: { code: 'CONFLICT', message } }, { status: 409 }));
    const { user, dialog } = await openTestAssistant();
    await user.type(within(dialog).getByRole('textbox', { name: 'Message to test the assistant' }), 'Hi{Enter}');
    await waitFor(() => expect(bubbles(dialog)[2]).toHaveTextContent(message));
    expect(bubbles(dialog)[2]).toHaveAttribute('data-error', 'true');
  });

  it('asks to save first only when the exam was never saved', async () => {
    seedExams();
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    await user.click(await screen.findByRole('switch', { name: 'Enable AI Assistant' }));
    expect(await screen.findByText('Save the exam to test the assistant with these settings')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Test Assistant' })).toBeDisabled();
  });

  it('tries the settings on screen without saving or leaving the editor', async () => {
    const requests = fakeTestChat(() => {
      const reply = controlledStream();
      reply.push({ type: 'delta', text: 'Ahoy.' });
      reply.push(done);
      reply.close();
      return new HttpResponse(reply.stream, { headers: { 'content-type': 'text/event-stream' } });
    });
    const saves: unknown[] = [];
    server.use(http.put('*/api/exams/:id', () => void saves.push(1)));
    const exam = aiExam();
    seedExams(exam);
    signInAs();
    const { user, router } = renderApp(`/creator/edit-exam/${exam.id}`);
    await user.type(await screen.findByLabelText('Welcome Message'), ' More.');
    const button = screen.getByRole('button', { name: 'Test Assistant' });
    expect(button).toBeEnabled();
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Test Assistant' });
    expect(bubbles(dialog)[0]).toHaveTextContent('Hello tester! More.');
    await user.type(within(dialog).getByRole('textbox', { name: 'Message to test the assistant' }), 'Hi{Enter}');
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.body.aiSettings).toMatchObject({
      enabled: true,
      provider: 'anthropic',
      model: 'claude-sonnet-4',
      startMessage: 'Hello tester! More.',
    });
    // The stored key is kept: the draft does not send one.
    expect(requests[0]?.body.aiSettings).not.toHaveProperty('apiKey');
    await waitFor(() => expect(bubbles(dialog)[2]).toHaveTextContent('Ahoy.'));
    expect(saves).toHaveLength(0);
    expect(router.state.location.pathname).toBe(`/creator/edit-exam/${exam.id}`);
  });

  it('closes with its labelled close button and with Escape, focus back on its button', async () => {
    const { user, dialog } = await openTestAssistant();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Test Assistant' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Test Assistant' }));
    await screen.findByRole('dialog', { name: 'Test Assistant' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('historyOf', () => {
  const entry = (role: 'user' | 'assistant', content: string, isError = false) => ({
    key: content,
    role,
    content,
    createdAt: '',
    isError,
    isStreaming: false,
  });

  it('leaves out failed exchanges and empty replies', () => {
    expect(
      historyOf([
        entry('user', 'a'),
        entry('assistant', 'b'),
        entry('user', 'c'),
        entry('assistant', 'failed', true),
        entry('user', 'd'),
        entry('assistant', ' '),
      ]),
    ).toEqual([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
      { role: 'user', content: 'd' },
    ]);
  });
});
