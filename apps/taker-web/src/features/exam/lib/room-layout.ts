import type { PublicExam } from '@exam/domain/public-exam';

/** The exam room's panels, left to right. */
export const PANEL_ORDER = ['questions', 'workspace', 'assistant'] as const;
export type PanelKey = (typeof PANEL_ORDER)[number];
export type PanelVisibility = Record<PanelKey, boolean>;

/** The spec's minimum widths in percent (docs/product.md#pages-and-messages); a panel is never dragged narrower. */
export const MIN_SIZES: Record<PanelKey, number> = { questions: 15, workspace: 20, assistant: 10 };

/**
 * Below this width the room shows one panel at a time under tabs: three columns at 1024 px leave the
 * assistant too narrow for its composer and the questions too narrow to read.
 */
export const NARROW_MAX_WIDTH_PX = 1100;
export const NARROW_QUERY = `(max-width: ${NARROW_MAX_WIDTH_PX - 0.02}px)`;

/**
 * Default widths in percent for each combination of shown panels. The spec's 25/60/15 left the assistant
 * about 200 px at 1366 px, too little for its composer, so the three-column default gives it a little over a
 * fifth; two columns give the questions a comfortable reading width.
 */
const DEFAULT_SIZES: Record<string, Partial<Record<PanelKey, number>>> = {
  questions: { questions: 100 },
  workspace: { workspace: 100 },
  assistant: { assistant: 100 },
  'questions+workspace': { questions: 38, workspace: 62 },
  'questions+assistant': { questions: 68, assistant: 32 },
  'workspace+assistant': { workspace: 72, assistant: 28 },
  'questions+workspace+assistant': { questions: 30, workspace: 48, assistant: 22 },
};

/** The panels an exam has: the questions always, the workspace and the assistant only when the creator enabled them. */
export function enabledPanels(exam: Pick<PublicExam, 'codingWorkspace' | 'aiSettings'>): PanelKey[] {
  return PANEL_ORDER.filter(
    (key) =>
      key === 'questions' ||
      (key === 'workspace' && exam.codingWorkspace.enabled) ||
      (key === 'assistant' && exam.aiSettings.enabled),
  );
}

/** The panels on screen: enabled by the exam and not hidden by the candidate, in their fixed order. */
export function shownPanels(enabled: readonly PanelKey[], visible: PanelVisibility): PanelKey[] {
  return PANEL_ORDER.filter((key) => enabled.includes(key) && visible[key]);
}

/** The default width of every shown panel for this combination, in percent (0 for the others). */
export function defaultSizes(shown: readonly PanelKey[]): Record<PanelKey, number> {
  const sizes: Record<PanelKey, number> = { questions: 0, workspace: 0, assistant: 0 };
  const ordered = PANEL_ORDER.filter((key) => shown.includes(key));
  const preset = DEFAULT_SIZES[ordered.join('+')] ?? {};
  for (const key of ordered) sizes[key] = preset[key] ?? 0;
  return sizes;
}

/** In the narrow layout, the tab to show: the chosen one while it is still shown, else the first shown panel. */
export function activeTab(shown: readonly PanelKey[], chosen: PanelKey): PanelKey | undefined {
  return shown.includes(chosen) ? chosen : shown[0];
}
