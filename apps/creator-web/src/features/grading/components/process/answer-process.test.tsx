import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  attemptSecond,
  makeRecordedTimeline,
  makeSignals,
  makeTimelineAnswer,
} from '../../../../testing/timeline-factories.ts';
import { AnswerProcess } from './answer-process.tsx';

const START = attemptSecond(0);
const recorded = () => makeRecordedTimeline().answers[0]!;

function renderProcess(answer = recorded(), onWatch = vi.fn()) {
  const user = userEvent.setup({ delay: null });
  render(<AnswerProcess questionIndex={answer.questionIndex} answer={answer} startedAt={START} onWatch={onWatch} />);
  return { user, onWatch };
}

const parts = () =>
  Array.from(screen.getByRole('group', { name: 'Final answer by source' }).children).map((part) => [
    part.textContent,
    part.getAttribute('data-source'),
  ]);

describe('how an answer came to be', () => {
  it('marks each part of the final answer by its source, with a legend naming each marking', () => {
    renderProcess();
    expect(screen.getByRole('heading', { name: 'How this answer came to be' })).toBeInTheDocument();
    expect(parts()).toEqual([
      ['Hello', 'typed'],
      [' world', 'pasted'],
      [' — a greeting', 'assistant'],
    ]);
    // Not by colour alone: each source has its own underline, and the legend says which.
    const [typed, pasted, assistant] = screen.getByRole('group', { name: 'Final answer by source' }).children;
    expect(typed!.className).not.toMatch(/underline/);
    expect(pasted!.className).toMatch(/decoration-dashed/);
    expect(assistant!.className).toMatch(/decoration-double/);
    const legend = within(screen.getByRole('list', { name: 'Sources' }));
    expect(legend.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'AbcTyped: plain text',
      'AbcPasted inside the exam: yellow, dashed underline',
      'AbcFrom the assistant: purple, double underline',
    ]);
  });

  it('gives the share of each source as a percentage with its count', () => {
    renderProcess();
    const shares = screen.getByLabelText('Share of each source');
    const rows = within(shares)
      .getAllByRole('term')
      .map((term) => `${term.textContent} ${term.nextElementSibling?.textContent}`);
    // 5 typed, 6 pasted, 13 from the assistant: 24 characters.
    expect(rows).toEqual([
      'Typed 21% (5 characters)',
      'Pasted inside the exam 25% (6 characters)',
      'From the assistant 54% (13 characters)',
    ]);
  });

  it('names the source of a part in a tooltip on focus and on hover, moving part by part with the arrow keys', async () => {
    const { user } = renderProcess();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Watch this answer in the replay' })).toHaveFocus();
    await user.tab();
    const answer = screen.getByRole('group', { name: 'Final answer by source' });
    expect(answer.children[0]).toHaveFocus();
    expect(screen.getByRole('tooltip')).toHaveTextContent('Typed, characters 1 to 5');
    expect(answer.children[0]).toHaveAccessibleDescription('Typed, characters 1 to 5');

    await user.keyboard('{ArrowRight}');
    expect(answer.children[1]).toHaveFocus();
    expect(screen.getByRole('tooltip')).toHaveTextContent('Pasted inside the exam, characters 6 to 11');
    await user.keyboard('{End}');
    expect(screen.getByRole('tooltip')).toHaveTextContent('From the assistant, characters 12 to 24');
    // One tab stop for the whole answer: the next Tab leaves it.
    await user.tab();
    expect(answer).not.toContainElement(document.activeElement as HTMLElement);
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();

    fireEvent.mouseEnter(answer.children[1]!);
    expect(screen.getByRole('tooltip')).toHaveTextContent('Pasted inside the exam');
  });

  it('says plainly when part of the answer was not recorded step by step', () => {
    renderProcess(
      makeTimelineAnswer({
        questionIndex: 0,
        reconciled: true,
        operations: [
          { at: attemptSecond(3), from: 0, to: 0, insert: 'abc', source: 'typed' },
          { at: attemptSecond(80), from: 3, to: 3, insert: 'def', source: 'restored' },
        ],
      }),
    );
    expect(
      screen.getByText('Part of this answer was not recorded step by step.').closest('[role="note"]'),
    ).toHaveTextContent('reached the stored answer without its edits');
    expect(parts()).toEqual([
      ['abc', 'typed'],
      ['def', 'restored'],
    ]);
  });

  it('says so when nothing of the answer was recorded', () => {
    render(<AnswerProcess questionIndex={2} answer={undefined} startedAt={START} />);
    expect(screen.getByText('Nothing was recorded of how this answer was written.')).toBeInTheDocument();
  });

  it('opens the replay at the answer’s first edit', async () => {
    const { user, onWatch } = renderProcess();
    await user.click(screen.getByRole('button', { name: 'Watch this answer in the replay' }));
    expect(onWatch).toHaveBeenCalledWith(10_000);
  });
});

describe('typing signals', () => {
  const figure = (label: string) => {
    const term = screen.getByText(label, { selector: 'dt' });
    const values: string[] = [];
    for (let dd = term.nextElementSibling; dd && dd.tagName === 'DD'; dd = dd.nextElementSibling) {
      values.push(dd.textContent ?? '');
    }
    return values;
  };

  it('shows each figure with its cohort percentile and one plain sentence', () => {
    renderProcess(
      makeTimelineAnswer({
        ...recorded(),
        signals: makeSignals({
          charsPerMinute: 212.4,
          pauses: { medianMs: 180, under2s: 140, from2to10s: 12, over10s: 3 },
          revisionRatio: 0.125,
          longestBurst: 86,
          keystrokes: 160,
          percentiles: { charsPerMinute: 80.4, medianPauseMs: 35, revisionRatio: 62.5, longestBurst: 71 },
        }),
      }),
    );
    expect(figure('Typing speed')).toEqual([
      '212 characters a minute',
      "Faster than 80% of this exam's candidates.",
      'Characters typed per minute while typing; pauses of 2 seconds or more are left out.',
    ]);
    expect(figure('Median pause between keystrokes')).toEqual([
      '0.18 s',
      "Longer than 35% of this exam's candidates. 140 under 2 s, 12 from 2 to 10 s, 3 over 10 s",
      'The typical gap between two keystrokes; pauses of 2 seconds or more usually mean the writer stopped to think.',
    ]);
    expect(figure('Revision ratio')[0]).toBe('0.13 deleted per character inserted');
    expect(figure('Revision ratio')[1]).toBe("Revises more than 63% of this exam's candidates.");
    expect(figure('Longest burst').slice(0, 2)).toEqual([
      '86 characters',
      "Longer than 71% of this exam's candidates.",
    ]);
    expect(figure('Keystrokes')[0]).toBe('160 keystrokes');
    expect(screen.getByRole('note', { name: 'Transcription-like typing' })).toHaveTextContent(
      'No long stretches typed at a copying-like steady pace.',
    );
    expect(screen.getByText(/never change the score/)).toBeInTheDocument();
  });

  it('says when there is no cohort to compare with and too little typing to measure', () => {
    renderProcess(makeTimelineAnswer({ ...recorded(), signals: makeSignals({ keystrokes: 4, longestBurst: 4 }) }));
    expect(figure('Typing speed')[0]).toBe('Too little typing to measure.');
    expect(figure('Longest burst')[1]).toBe('No other candidates to compare with yet.');
  });

  it('words the transcription-like indicator as something to look at, with the stretches to watch', async () => {
    const { user, onWatch } = renderProcess(
      makeTimelineAnswer({
        ...recorded(),
        signals: makeSignals({
          keystrokes: 900,
          transcriptionLike: {
            flagged: true,
            spans: [{ start: attemptSecond(120), end: attemptSecond(305), chars: 640 }],
            chars: 640,
          },
        }),
      }),
    );
    const note = screen.getByRole('note', { name: 'Transcription-like typing' });
    expect(note).toHaveTextContent(
      'Long stretches typed at a steady pace with almost no corrections and no visible source — the pattern of copying from another screen. Look at the replay before drawing conclusions.',
    );
    expect(note).toHaveTextContent('One stretch, 640 characters in all:');
    expect(note).not.toHaveTextContent(/cheat|dishonest|violation|guilty/i);
    await user.click(within(note).getByRole('button', { name: 'Watch 02:00 to 05:05' }));
    expect(onWatch).toHaveBeenCalledWith(120_000);
  });
});
