import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

/** WCAG 2.0, 2.1 and 2.2, levels A and AA: the bar every page of both apps is held to (ARCHITECTURE.md, Accessibility). */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
const BLOCKING = new Set(['serious', 'critical']);

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;
type Violation = AxeResults['violations'][number];

/** One line per violation and up to five of its elements: what a reader needs to find and fix it. */
export function describeViolations(violations: Violation[]): string {
  return violations
    .map((violation) => {
      const targets = violation.nodes
        .slice(0, 5)
        .map((node) => {
          const why = node.failureSummary?.split('\n')[1]?.trim();
          return `    ${node.target.join(' ')}${why ? ` — ${why}` : ''}`;
        })
        .join('\n');
      const more = violation.nodes.length > 5 ? `\n    …and ${violation.nodes.length - 5} more` : '';
      return `[${violation.impact}] ${violation.id}: ${violation.help}\n${targets}${more}`;
    })
    .join('\n');
}

/**
 * Runs axe-core on the page as it is now and fails the journey on any serious or critical WCAG A/AA violation.
 * Call it once per distinct page state a journey reaches (a page, an open dialog), not after every click:
 * each run costs a few hundred milliseconds.
 *
 * What is inside the coding workspace's iframe is excluded: it is code-server (a third-party editor on its own
 * origin) whose markup the platform does not write. That the frame has its title, the journeys check by finding it
 * by that title.
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  await test.step(`axe: ${label}`, async () => {
    const results = await new AxeBuilder({ page })
      .withTags(WCAG_TAGS)
      // The frame's subtree: excluding only its `html` ({ fromFrames }) left the real code-server's markup in the scan.
      .exclude('iframe[title="Coding workspace"]')
      // A frame sandboxed without scripts (the invitation mail's preview) cannot run axe: the scan waited on it until
      // the journey timed out. The mail's HTML is plain markup the roster journey reads itself.
      .exclude('iframe[sandbox=""]')
      .analyze();
    const blocking = results.violations.filter((violation) => BLOCKING.has(violation.impact ?? ''));
    // Soft: the journey goes on and reports every page's findings at its end, and still fails.
    expect.soft(describeViolations(blocking), `serious or critical axe findings on ${label} (${page.url()})`).toBe('');
  });
}

const checkedOnce = new Set<string>();

/**
 * expectAccessible for a page every journey passes through the same way (the candidate's start, details and
 * briefing pages in enterExam): checked the first time this worker reaches it, skipped afterwards, so the
 * shared steps cost one axe run per suite rather than one per journey.
 */
export async function expectAccessibleOnce(page: Page, label: string): Promise<void> {
  if (checkedOnce.has(label)) return;
  await expectAccessible(page, label);
  checkedOnce.add(label);
}
