import type { PublicAiSettings } from '@exam/domain/exam-ai';
import { LlmMessages } from '@exam/domain/llm';
import { SectionMessages } from '@exam/domain/sections';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { buildPublicExam } from '../../../testing/factories.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';
import {
  controlledStream,
  createFakeGateway,
  replyStream,
  sse,
  transcriptMessage,
} from '../../../testing/fake-gateway.ts';
import { AssistantPanel } from './assistant-panel.tsx';

const readyAi: PublicAiSettings = {
  enabled: true,
  provider: 'openai',
  model: 'gpt-4o-mini',
  startMessage: '',
  copyLLMResponse: true,
  uploadDocuments: false,
  materialNames: [],
  missing: [],
};

function renderPanel(
  options: {
    ai?: Partial<PublicAiSettings>;
    preview?: boolean;
    activeQuestionIndex?: number;
    gateway?: ReturnType<typeof createFakeGateway>;
    assistantOff?: boolean;
  } = {},
) {
  const gateway = options.gateway ?? createFakeGateway();
  server.use(...gateway.handlers);
  const exam = buildPublicExam({ aiSettings: { ...readyAi, ...options.ai } });
  const attempt = options.preview ? null : { attemptId: crypto.randomUUID(), token: 'attempt-token' };
  const user = userEvent.setup();
  const ui = (assistantOff: boolean) => (
    <AssistantPanel
      exam={exam}
      attempt={attempt}
      preview={options.preview ?? false}
      activeQuestionIndex={options.activeQuestionIndex ?? 0}
      assistantOff={assistantOff}
    />
  );
  // The panel's section rule changes under it as the candidate moves between sections.
  let setOff: (off: boolean) => void = () => undefined;
  function Harness() {
    const [off, set] = useState(options.assistantOff ?? false);
    setOff = set;
    return ui(off);
  }
  renderWithProviders(<Harness />);
  return { user, gateway, setAssistantOff: (off: boolean) => act(() => setOff(off)) };
}

const messagesOf = () =>
  within(screen.getByRole('log', { name: 'Conversation with the AI assistant' })).queryAllByTestId('chat-message');
const textbox = () => screen.getByRole('textbox', { name: 'Message the AI assistant' });
const readyTextbox = async () => {
  await waitFor(() => expect(textbox()).toBeEnabled());
  return textbox();
};

describe('AssistantPanel', () => {
  it('says plainly that the assistant is off for this section and takes no message, until a section with it', async () => {
    const gateway = createFakeGateway({
      transcript: [transcriptMessage({ role: 'user', content: 'Earlier question' })],
    });
    const { setAssistantOff } = renderPanel({ assistantOff: true, gateway });
    const notice = await screen.findByTestId('assistant-off-notice');
    expect(notice).toHaveTextContent(SectionMessages.assistantOff);
    expect(notice).toHaveAttribute('role', 'status');
    // The conversation so far stays readable.
    expect(await screen.findByText('Earlier question')).toBeInTheDocument();
    expect(textbox()).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send message' })).toBeDisabled();

    setAssistantOff(false);
    await readyTextbox();
    expect(screen.queryByTestId('assistant-off-notice')).not.toBeInTheDocument();
  });

  it("shows the creator's welcome message as the first message", async () => {
    renderPanel({ ai: { startMessage: 'Welcome! Ask me about limits.' } });
    await readyTextbox();
    expect(messagesOf()[0]).toHaveTextContent('Welcome! Ask me about limits.');
    expect(messagesOf()[0]).toHaveAttribute('data-role', 'assistant');
  });

  it('greets by default naming the provider, the uploads and the course materials', async () => {
    renderPanel({ ai: { provider: 'groq', uploadDocuments: true, materialNames: ['week1.pdf'] } });
    await readyTextbox();
    const greeting = messagesOf()[0];
    expect(greeting).toHaveTextContent(/Hello!.*Groq/);
    expect(greeting).toHaveTextContent('attach files');
    expect(greeting).toHaveTextContent('week1.pdf');
  });

  it('restores the stored conversation after the greeting, read with the attempt token', async () => {
    const gateway = createFakeGateway({
      transcript: [
        transcriptMessage({ role: 'user', content: 'What is a limit?' }),
        transcriptMessage({ role: 'assistant', content: 'A value a function **approaches**.' }),
        transcriptMessage({ role: 'assistant', content: LlmMessages.chatError, isError: true }),
      ],
    });
    renderPanel({ gateway });
    await readyTextbox();
    const messages = messagesOf();
    expect(messages).toHaveLength(4);
    expect(messages[1]).toHaveTextContent('What is a limit?');
    expect(messages[1]).toHaveAttribute('data-role', 'user');
    // Replies are rich text, whose renderer is a lazy chunk.
    expect((await within(messages[2] as HTMLElement).findByText('approaches')).tagName).toBe('STRONG');
    expect(messages[3]).toHaveAttribute('data-error', 'true');
    expect(gateway.state.transcriptReads).toEqual(['Bearer attempt-token']);
  });

  it("highlights a reply's code block with the code editor's highlighter", async () => {
    const reply = ['Try slicing:', '', '```python', 'def reverse(text):', '    return text[::-1]', '```'].join('\n');
    renderPanel({
      gateway: createFakeGateway({ transcript: [transcriptMessage({ role: 'assistant', content: reply })] }),
    });
    await waitFor(() => expect(messagesOf()).toHaveLength(2));
    const bubble = messagesOf()[1]!;
    await waitFor(() => expect(bubble.querySelector('pre')).toHaveAttribute('data-highlighted', 'true'));
    expect(bubble.querySelector('pre')).toHaveTextContent('return text[::-1]');
  });

  it('streams a reply into the conversation as it arrives and ends it', async () => {
    const reply = controlledStream();
    const gateway = createFakeGateway({ reply: () => sse(reply.stream) });
    const { user } = renderPanel({ gateway, activeQuestionIndex: 2 });
    await user.type(await readyTextbox(), '  What is a prime?  {Enter}');

    expect(await screen.findByRole('status', { name: 'Assistant is typing' })).toBeInTheDocument();
    expect(messagesOf()[1]).toHaveTextContent('What is a prime?');
    expect(textbox()).toHaveValue('');
    await waitFor(() => expect(gateway.state.chats).toHaveLength(1));
    expect(gateway.state.chats[0]).toEqual({
      body: { message: 'What is a prime?', questionIndex: 2, clientMessageId: expect.any(String) },
      authorization: 'Bearer attempt-token',
    });

    reply.push({ type: 'delta', text: 'A prime has ' });
    await waitFor(() => expect(messagesOf()[2]).toHaveTextContent('A prime has'));
    expect(screen.queryByRole('status', { name: 'Assistant is typing' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send message' })).toBeDisabled();

    reply.push({ type: 'delta', text: 'exactly two divisors.' });
    reply.push({ type: 'done', messageId: 'm-2', usage: { inputTokens: 5, outputTokens: 6, estimated: false } });
    reply.close();
    await waitFor(() =>
      expect(within(messagesOf()[2] as HTMLElement).getByRole('button', { name: 'Copy' })).toBeInTheDocument(),
    );
    expect(messagesOf()[2]).toHaveTextContent('A prime has exactly two divisors.');
    expect(messagesOf()[2]).not.toHaveAttribute('data-error');
  });

  it('sends a cut reply again with the same clientMessageId, quietly reconnecting, and shows the whole reply once', async () => {
    const gateway = createFakeGateway({
      reply: () => {
        if (gateway.state.chats.length > 1) return sse(replyStream('Recursion is ', 'a function calling itself.'));
        // The replica serving the first try shut down half-way through the reply.
        const cut = controlledStream();
        cut.push({ type: 'delta', text: 'Recursion is a fun' });
        cut.push({ type: 'interrupted' });
        cut.close();
        return sse(cut.stream);
      },
    });
    const { user } = renderPanel({ gateway });
    await user.type(await readyTextbox(), 'Explain recursion{Enter}');

    expect(await screen.findByRole('status', { name: '' })).toHaveTextContent('Reconnecting…');
    await waitFor(() => expect(messagesOf()[2]).toHaveTextContent('Recursion is a function calling itself.'));
    expect(messagesOf()).toHaveLength(3);
    expect(messagesOf()[2]).not.toHaveAttribute('data-error');
    expect(screen.queryByText('Reconnecting…')).not.toBeInTheDocument();
    const [first, second] = gateway.state.chats;
    expect(second?.body).toEqual(first?.body);
    expect(first?.body.clientMessageId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('shows the standard error reply when every try of a message fails', async () => {
    const gateway = createFakeGateway({
      reply: () => HttpResponse.json({ error: { code: 'UNAVAILABLE', message: 'down' } }, { status: 503 }),
    });
    const { user } = renderPanel({ gateway });
    await user.type(await readyTextbox(), 'Anyone there?{Enter}');
    // Three retries, 0.5 s, 1 s and 2 s apart (CHAT_RETRY_DELAYS_MS).
    await waitFor(() => expect(messagesOf()[2]).toHaveTextContent(LlmMessages.chatError), { timeout: 12_000 });
    expect(messagesOf()[2]).toHaveAttribute('data-error', 'true');
    expect(gateway.state.chats).toHaveLength(4);
  });

  it("shows the gateway's budget message as the reply when it answers 429", async () => {
    const limit = LlmMessages.messageLimit(3);
    const gateway = createFakeGateway({
      reply: () => HttpResponse.json({ error: { code: 'RATE_LIMITED', message: limit } }, { status: 429 }),
    });
    const { user } = renderPanel({ gateway });
    await user.type(await readyTextbox(), 'One more question{Enter}');
    await waitFor(() => expect(messagesOf()[2]).toHaveTextContent(limit));
    expect(messagesOf()[2]).toHaveAttribute('data-error', 'true');
    await waitFor(() => expect(textbox()).toBeEnabled());
  });

  it('shows the standard error reply when the stream ends with an error event, in place of the partial text', async () => {
    const reply = controlledStream();
    const gateway = createFakeGateway({ reply: () => sse(reply.stream) });
    const { user } = renderPanel({ gateway });
    await user.type(await readyTextbox(), 'Explain recursion{Enter}');
    reply.push({ type: 'delta', text: 'Recursion is' });
    await waitFor(() => expect(messagesOf()[2]).toHaveTextContent('Recursion is'));
    reply.push({ type: 'error', message: LlmMessages.chatError });
    reply.close();
    await waitFor(() => expect(messagesOf()[2]).toHaveTextContent(LlmMessages.chatError));
    expect(messagesOf()[2]).toHaveAttribute('data-error', 'true');
    expect(messagesOf()[2]).not.toHaveTextContent('Recursion is');
  });

  it('keeps what arrived of a reply the gateway stopped, with the reason under it, and shows it again after a reload', async () => {
    const reply = controlledStream();
    const gateway = createFakeGateway({ reply: () => sse(reply.stream) });
    const { user } = renderPanel({ gateway });
    await user.type(await readyTextbox(), 'Tell me the answer{Enter}');
    reply.push({ type: 'delta', text: 'Think about spread first.' });
    reply.push({ type: 'withheld', messageId: 'm-3', message: LlmMessages.answerWithheld });
    reply.close();
    await waitFor(() =>
      expect(within(messagesOf()[2] as HTMLElement).getByRole('note')).toHaveTextContent(LlmMessages.answerWithheld),
    );
    expect(messagesOf()[2]).toHaveTextContent('Think about spread first.');
    expect(messagesOf()[2]).not.toHaveAttribute('data-error');
    await waitFor(() => expect(textbox()).toBeEnabled());
  });

  it('marks a stopped reply restored from the transcript', async () => {
    const gateway = createFakeGateway({
      transcript: [
        transcriptMessage({ content: 'Answer?' }),
        transcriptMessage({
          role: 'assistant',
          content: 'Think about spread.',
          isWithheld: true,
          withheldQuestionIndex: 1,
        }),
      ],
    });
    renderPanel({ gateway });
    await waitFor(() => expect(messagesOf()).toHaveLength(3));
    expect(within(messagesOf()[2] as HTMLElement).getByRole('note')).toHaveTextContent(LlmMessages.answerWithheld);
  });

  it('adds a line on Shift+Enter and sends nothing blank', async () => {
    const { user, gateway } = renderPanel();
    const box = await readyTextbox();
    await user.type(box, '   {Enter}');
    expect(screen.getByRole('button', { name: 'Send message' })).toBeDisabled();
    await user.clear(box);
    await user.type(box, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(box).toHaveValue('line one\nline two');
    expect(messagesOf()).toHaveLength(1);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(gateway.state.chats.map((c) => c.body.message)).toEqual(['line one\nline two']));
  });

  it('makes replies unselectable, refuses copying them and says so when copying is off', async () => {
    const gateway = createFakeGateway({
      transcript: [transcriptMessage({ role: 'assistant', content: 'Secret sauce' })],
    });
    renderPanel({ gateway, ai: { copyLLMResponse: false } });
    await readyTextbox();
    expect(screen.getByText('Text copying is disabled.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy' })).not.toBeInTheDocument();
    const reply = within(messagesOf()[1] as HTMLElement).getByRole('group');
    expect(reply).toHaveClass('select-none');
    expect(fireEvent.copy(within(reply).getByText('Secret sauce'))).toBe(false);
  });

  it('offers attachments only when uploads are allowed', async () => {
    renderPanel();
    await readyTextbox();
    expect(screen.queryByRole('button', { name: 'Attach files' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Choose files to attach')).not.toBeInTheDocument();
  });

  it('sends attached files as base64, after the candidate removed one', async () => {
    const { user, gateway } = renderPanel({ ai: { uploadDocuments: true } });
    await readyTextbox();
    const input = screen.getByLabelText('Choose files to attach');
    await user.upload(input, [
      new File(['a,b\n1,2'], 'data.csv', { type: 'text/csv' }),
      new File(['hi'], 'notes.txt', { type: 'text/plain' }),
    ]);
    const chips = screen.getByRole('list', { name: 'Files to send' });
    expect(
      within(chips)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['data.csv', 'notes.txt']);
    await user.click(screen.getByRole('button', { name: 'Remove notes.txt' }));
    expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    await waitFor(() => expect(gateway.state.chats).toHaveLength(1));
    expect(gateway.state.chats[0]?.body.files).toEqual([
      { name: 'data.csv', type: 'text/csv', size: 7, dataBase64: btoa('a,b\n1,2') },
    ]);
    expect(within(messagesOf()[1] as HTMLElement).getByRole('list', { name: 'Attached files' })).toHaveTextContent(
      'data.csv',
    );
    expect(screen.queryByRole('list', { name: 'Files to send' })).not.toBeInTheDocument();
  });

  it('labels a fenced code block in a reply with its language', async () => {
    const gateway = createFakeGateway({
      reply: () => sse(replyStream('Like this:\n\n```python\n', 'print("hi")\n```\n')),
    });
    const { user } = renderPanel({ gateway });
    await user.type(await readyTextbox(), 'Show me code{Enter}');
    const block = await screen.findByTestId('code-block');
    expect(within(block).getByText('python')).toBeInTheDocument();
    expect(block).toHaveTextContent('print("hi")');
  });

  it('says the assistant is not enabled when the creator turned it off', () => {
    renderPanel({ ai: { enabled: false } });
    expect(screen.getByText('AI Assistant is not enabled for this exam')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('lists what is missing when the configuration is incomplete', () => {
    renderPanel({ ai: { missing: ['API key missing.', 'Model not selected.'] } });
    expect(screen.getByText(LlmMessages.configurationIncomplete)).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Missing settings' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['API key missing.', 'Model not selected.']);
  });

  it("shows the greeting in a preview and points to the editor's Test Assistant without calling the gateway", () => {
    const { gateway } = renderPanel({ preview: true, ai: { startMessage: 'Hi from the preview' } });
    expect(messagesOf()[0]).toHaveTextContent('Hi from the preview');
    expect(screen.getByText(/Test Assistant/)).toBeInTheDocument();
    expect(textbox()).toBeDisabled();
    expect(gateway.state.transcriptReads).toEqual([]);
  });
});
