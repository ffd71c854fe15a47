import { fromCompact, replayWithSources, type AnswerSource } from '@exam/domain/answer-operations';
import { act, screen, waitFor, within } from '@testing-library/react';
import { EditorView } from '@uiw/react-codemirror';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPublicExam, buildQuestion } from '../../../testing/factories.ts';
import { createFakeGateway, transcriptMessage } from '../../../testing/fake-gateway.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { seedAttempt } from '../../../testing/seed.ts';
import { server } from '../../../testing/server.ts';

const REPLY = 'Use slicing with a negative step.';
const STARTER = 'def reverse(s):\n    pass\n';
const STARTED_AT = '2030-01-01T10:00:00.000Z';

beforeAll(() => {
  // jsdom lays nothing out and its ranges have no rectangles; CodeMirror measures some after each update.
  const emptyRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  if (typeof Range.prototype.getClientRects !== 'function') Range.prototype.getClientRects = emptyRects;
  if (typeof Range.prototype.getBoundingClientRect !== 'function')
    Range.prototype.getBoundingClientRect = () => new DOMRect(0, 0, 0, 0);
});

async function openExam() {
  const exam = buildPublicExam({
    questions: [
      buildQuestion({ type: 'mcq', title: 'Pick a prime', options: ['4', '6', '7', '9'] }),
      buildQuestion({ type: 'short-answer', title: 'Name the capital of France' }),
      buildQuestion({ type: 'coding', title: 'Reverse a string', language: 'python', starterCode: STARTER }),
    ],
    aiSettings: {
      enabled: true,
      provider: 'openai',
      model: 'gpt-4o-mini',
      startMessage: 'Hi!',
      copyLLMResponse: true,
      uploadDocuments: false,
      materialNames: [],
      missing: [],
    },
  });
  const fake = createFakeResultsService({ exam, attemptId: crypto.randomUUID() });
  const gateway = createFakeGateway({
    transcript: [
      transcriptMessage({ role: 'user', content: 'How do I reverse?' }),
      transcriptMessage({ role: 'assistant', content: REPLY }),
    ],
  });
  server.use(...fake.handlers, ...gateway.handlers);
  await seedAttempt(exam, fake.attemptId, { startedAt: STARTED_AT, clockOffsetMs: 0 });
  const view = renderRoute(`/exam/${exam.id}`);
  const reply = await screen.findByText(REPLY);
  return { ...view, fake, replyBubble: reply.closest('[data-testid="chat-message"]') as HTMLElement };
}

/** jsdom has no ClipboardEvent; an Event with clipboardData is what the paste guard and CodeMirror read. */
function clipboardEvent(type: 'copy' | 'paste', target: Element, text: string): Event {
  const event = new Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'clipboardData', {
    value: { getData: (format: string) => (format === 'text/plain' ? text : '') },
  });
  act(() => void target.dispatchEvent(event));
  return event;
}

/** What the server's operations of a question replay to, and its characters by source in runs. */
function rebuilt(fake: ReturnType<typeof createFakeResultsService>, questionIndex: number) {
  const ops = (fake.state.operations.get(questionIndex) ?? []).map((op) => fromCompact(op, Date.parse(STARTED_AT)));
  return replayWithSources(ops);
}

const caretAtEnd = (field: HTMLTextAreaElement) =>
  act(() => {
    field.focus();
    field.setSelectionRange(field.value.length, field.value.length);
  });

describe('recording how each answer came to be', () => {
  it('records typing, pastes from inside the exam and from an assistant reply in a short answer, and nothing for a refused paste', async () => {
    const { user, fake, replyBubble } = await openExam();
    const field = screen.getByLabelText<HTMLTextAreaElement>('Answer for Q2');
    await user.type(field, 'It is the ');

    clipboardEvent('copy', screen.getByRole('heading', { name: /^Q2:/ }), 'capital');
    caretAtEnd(field);
    await user.paste('capital');
    await user.type(field, '. ');

    await user.click(within(replyBubble).getByRole('button', { name: 'Copy' }));
    await within(replyBubble).findByRole('button', { name: 'Copied' });
    caretAtEnd(field);
    await user.paste(REPLY);

    // A paste of text never copied in the exam is refused and changes nothing.
    caretAtEnd(field);
    await user.paste('from another window');
    expect(field).toHaveValue(`It is the capital. ${REPLY}`);
    await user.tab();

    await waitFor(() => expect(fake.state.answers.get(1)?.answer).toBe(`It is the capital. ${REPLY}`));
    await waitFor(() => expect(rebuilt(fake, 1).text).toBe(`It is the capital. ${REPLY}`));
    expect(rebuilt(fake, 1).runs).toEqual([
      [10, 'typed'],
      [7, 'pasted'],
      [2, 'typed'],
      [REPLY.length, 'assistant'],
    ]);
    await waitFor(() => expect(fake.state.events.map((e) => e.type)).toContain('paste-blocked'));
  });

  it('records an MCQ pick as one typed operation replacing the whole answer', async () => {
    const { user, fake } = await openExam();
    await user.click(screen.getByRole('radio', { name: '4' }));
    await user.click(screen.getByRole('radio', { name: '7' }));
    await waitFor(() => expect(fake.state.operations.get(0)).toHaveLength(2));
    const ops = (fake.state.operations.get(0) ?? []).map((op) => fromCompact(op, Date.parse(STARTED_AT)));
    expect(ops.map(({ from, to, insert, source }) => ({ from, to, insert, source }))).toEqual([
      { from: 0, to: 0, insert: '4', source: 'typed' },
      { from: 0, to: 1, insert: '7', source: 'typed' },
    ]);
    expect(fake.state.answers.get(0)?.answer).toBe('7');
  });

  it('records the code editor: the starter code as restored, then typing, a completion and a pasted reply', async () => {
    const { user, fake, replyBubble } = await openExam();
    const editor = await screen.findByTestId('code-editor');
    const dom = await waitFor(() => {
      const found = editor.querySelector<HTMLElement>('.cm-editor');
      expect(found).not.toBeNull();
      return found as HTMLElement;
    });
    const view = EditorView.findFromDOM(dom);
    if (!view) throw new Error('no editor view');
    // One transaction with two changes: the positions of the second are after the first is applied.
    act(() =>
      view.dispatch({
        changes: [
          { from: 4, to: 11, insert: 'flip' },
          { from: 20, to: 24, insert: 'return s[::-1]' },
        ],
        userEvent: 'input.type',
      }),
    );
    const end = () => view.state.doc.length;
    act(() => view.dispatch({ changes: { from: end(), insert: 'print' }, userEvent: 'input.complete' }));
    act(() => view.dispatch({ selection: { anchor: end() } }));

    await user.click(within(replyBubble).getByRole('button', { name: 'Copy' }));
    await within(replyBubble).findByRole('button', { name: 'Copied' });
    expect(clipboardEvent('paste', view.contentDOM, REPLY).defaultPrevented).toBe(true);
    const code = `def flip(s):\n    return s[::-1]\nprint${REPLY}`;
    expect(view.state.doc.toString()).toBe(code);

    await waitFor(() => expect(fake.state.answers.get(2)?.answer).toBe(code));
    await waitFor(() => expect(rebuilt(fake, 2).text).toBe(code));
    const bySource = (source: AnswerSource) =>
      rebuilt(fake, 2)
        .runs.filter(([, s]) => s === source)
        .reduce((sum, [length]) => sum + length, 0);
    expect(bySource('restored')).toBe('def (s):\n    \n'.length);
    expect(bySource('typed')).toBe('flipreturn s[::-1]'.length);
    expect(bySource('autocomplete')).toBe('print'.length);
    expect(bySource('assistant')).toBe(REPLY.length);
  });
});
