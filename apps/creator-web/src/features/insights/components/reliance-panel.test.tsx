import type { InsightsReport } from '@exam/domain/insights';
import { TooltipProvider } from '@exam/ui/tooltip';
import { render as renderElement, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeAidedInsightsReport } from '../../../testing/result-factories.ts';
import { ReliancePanel } from './reliance-panel.tsx';

/** The panel as the app has it: figures explain themselves in tooltips, which need the app's provider. */
const renderPanel = (report: InsightsReport) =>
  renderElement(
    <TooltipProvider>
      <ReliancePanel report={report} />
    </TooltipProvider>,
  );

const cells = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => Array.from(row.children).map((cell) => cell.textContent?.replace(/\s+/g, ' ').trim()));

describe('the reliance panel', () => {
  it('shows RAIR, RSR and error adoption over the exam, pooled with their counts and as the mean of candidates', () => {
    const report = makeAidedInsightsReport();
    report.explanations['reliance.rair'] = 'Took right advice when their own answer was wrong.';
    renderPanel(report);
    expect(screen.getByRole('heading', { name: 'Reliance on the assistant' })).toBeInTheDocument();
    expect(screen.getByText(/sometimes wrong on purpose/)).toBeInTheDocument();
    expect(cells(screen.getByRole('table', { name: 'Reliance over the exam' }))).toEqual([
      ['RAIRTook right advice when their own answer was wrong.', '50% (1/2)', '50% over 2 candidates'],
      ['RSR', '50% (1/2)', '50% over 2 candidates'],
      ['Error adoption', '33.3% (1/3)', '50% over 2 candidates'],
    ]);
    expect(screen.getByText('5 cases: keyed questions the assistant advised on.')).toBeInTheDocument();
  });

  it('tells the candidate who adopted a planted error from the one who rejected it, with each figure’s counts', () => {
    renderPanel(makeAidedInsightsReport());
    const table = screen.getByRole('table', { name: 'Reliance per candidate' });
    // Cy has no case and no planted error: left out.
    expect(cells(table)).toEqual([
      ['Ann', '100% (1/1)', '0% (0/1)', '100% (1/1)', '2', 'Q5: “Lyon”Adopted'],
      ['Bo', '0% (0/1)', '100% (1/1)', '0% (0/2)', '3', 'Q5: “Lyon”RejectedQ6: “41”Rejected'],
    ]);
    expect(cells(screen.getByRole('table', { name: 'Planted errors per question' }))).toEqual([
      ['Question 5', '2', '1'],
      ['Question 6', '1', '0'],
    ]);
  });

  it('gives the reason instead of figures when the transcripts could not be read', () => {
    const reason = 'The AI assistant’s chat transcripts could not be loaded (llm-gateway is unavailable).';
    const report = makeAidedInsightsReport({ reliance: null });
    report.reasons.reliance = reason;
    renderPanel(report);
    expect(screen.getByText(reason)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
