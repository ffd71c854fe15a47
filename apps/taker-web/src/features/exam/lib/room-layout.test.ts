import { describe, expect, it } from 'vitest';
import { buildPublicExam } from '../../../testing/factories.ts';
import {
  activeTab,
  defaultSizes,
  enabledPanels,
  MIN_SIZES,
  NARROW_MAX_WIDTH_PX,
  NARROW_QUERY,
  PANEL_ORDER,
  shownPanels,
  type PanelKey,
} from './room-layout.ts';

const exam = (workspace: boolean, assistant: boolean) => {
  const base = buildPublicExam();
  return {
    ...base,
    codingWorkspace: { ...base.codingWorkspace, enabled: workspace },
    aiSettings: { ...base.aiSettings, enabled: assistant },
  };
};

/** Every non-empty combination of panels, in their order. */
const combinations: PanelKey[][] = [1, 2, 3, 4, 5, 6, 7].map((mask) => PANEL_ORDER.filter((_, i) => mask & (1 << i)));

describe('enabledPanels', () => {
  it('gives every exam its questions, and the workspace and the assistant only when the creator enabled them', () => {
    expect(enabledPanels(exam(false, false))).toEqual(['questions']);
    expect(enabledPanels(exam(false, true))).toEqual(['questions', 'assistant']);
    expect(enabledPanels(exam(true, false))).toEqual(['questions', 'workspace']);
    expect(enabledPanels(exam(true, true))).toEqual(['questions', 'workspace', 'assistant']);
  });
});

describe('shownPanels', () => {
  it('shows what is enabled and not hidden, never a disabled panel the candidate did not hide', () => {
    const all = { questions: true, workspace: true, assistant: true };
    expect(shownPanels(['questions'], all)).toEqual(['questions']);
    expect(shownPanels(['questions', 'workspace', 'assistant'], { ...all, workspace: false })).toEqual([
      'questions',
      'assistant',
    ]);
  });
});

describe('defaultSizes', () => {
  it.each(combinations)('fills the width with panels no narrower than their minimum (%s…)', (...shown) => {
    const sizes = defaultSizes(shown);
    expect(shown.reduce((sum, key) => sum + sizes[key], 0)).toBe(100);
    for (const key of PANEL_ORDER) {
      if (shown.includes(key)) expect(sizes[key]).toBeGreaterThanOrEqual(MIN_SIZES[key]);
      else expect(sizes[key]).toBe(0);
    }
  });

  it('gives the questions the whole width alone, and the larger share beside the assistant', () => {
    expect(defaultSizes(['questions'])).toEqual({ questions: 100, workspace: 0, assistant: 0 });
    const withAssistant = defaultSizes(['questions', 'assistant']);
    expect(withAssistant.questions).toBeGreaterThan(withAssistant.assistant);
  });

  it('gives the workspace the larger share beside the questions, and the assistant room for its composer', () => {
    const two = defaultSizes(['questions', 'workspace']);
    expect(two.workspace).toBeGreaterThan(two.questions);
    const three = defaultSizes(['questions', 'workspace', 'assistant']);
    expect(three.workspace).toBeGreaterThan(three.questions);
    // At 1366 px a fifth is about 270 px: the composer's input keeps well over 160 px.
    expect(three.assistant).toBeGreaterThanOrEqual(20);
  });

  it('reads the panels in their fixed order whatever order it is given', () => {
    expect(defaultSizes(['assistant', 'questions'])).toEqual(defaultSizes(['questions', 'assistant']));
  });
});

describe('the narrow layout', () => {
  it('starts below 1100 px', () => {
    expect(NARROW_MAX_WIDTH_PX).toBe(1100);
    expect(NARROW_QUERY).toBe('(max-width: 1099.98px)');
  });

  it('shows the chosen tab while it is shown, and the first panel otherwise', () => {
    expect(activeTab(['questions', 'workspace'], 'workspace')).toBe('workspace');
    expect(activeTab(['questions', 'workspace'], 'assistant')).toBe('questions');
    expect(activeTab([], 'questions')).toBeUndefined();
  });
});
