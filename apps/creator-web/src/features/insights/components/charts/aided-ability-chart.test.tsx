import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeAidedInsightsReport, makeCandidate } from '../../../../testing/result-factories.ts';
import { AidedAbilityChart, sortedGaps } from './aided-ability-chart.tsx';

const chart = () => screen.getByTestId('chart-aided-ability');

describe('the aided and unaided ability chart', () => {
  it('sorts the candidates by gap and keeps each one’s interval and flag', () => {
    const points = sortedGaps(makeAidedInsightsReport().candidates);
    expect(points.map((p) => [p.position, p.name, Number(p.gap.toFixed(2)), p.flag])).toEqual([
      [1, 'Cy', -0.3, null],
      [2, 'Ann', 0.2, null],
      [3, 'Bo', 2.8, 'above'],
    ]);
    expect(points[0]!.error.map((e) => Number(e.toFixed(2)))).toEqual([0.98, 0.98]);
  });

  it('draws every candidate’s gap with its interval, the flagged one apart, and says the cohort’s figures', () => {
    render(<AidedAbilityChart report={makeAidedInsightsReport()} />);
    expect(
      within(chart()).getByRole('img', {
        name: 'Sorted gaps between aided and unaided ability of 3 candidates, with 95 % intervals',
      }),
    ).toBeInTheDocument();
    expect(within(chart()).getByText(/Median gap 0.20 logits \(middle half -0.10 to 1.50\)/)).toBeInTheDocument();
    expect(within(chart()).getByText(/reliability of one candidate's gap 0.45/)).toBeInTheDocument();
    expect(within(chart()).getByText(/Flagged: 1 far above the cohort, 0 far below/)).toBeInTheDocument();
    // One error bar per candidate; the flagged one is a triangle of its own series, named in the legend.
    expect(chart().querySelectorAll('.recharts-errorBar')).toHaveLength(3);
    expect(within(chart()).getAllByText('Far above the cohort (leans on the assistant)').length).toBeGreaterThan(0);

    const table = within(chart()).getByRole('table', { name: 'Aided and unaided ability data', hidden: true });
    const rows = within(table).getAllByRole('row', { hidden: true }).slice(1);
    expect(rows.map((r) => Array.from(r.children).map((c) => c.textContent))).toEqual([
      ['Ann', '0.50 ± 0.40', '0.30 ± 0.40', '0.20', '-0.78 … 1.18', ''],
      ['Bo', '1.20 ± 0.40', '-1.60 ± 0.40', '2.80', '1.82 … 3.78', 'Far above the cohort (leans on the assistant)'],
      ['Cy', '-0.20 ± 0.40', '0.10 ± 0.40', '-0.30', '-1.28 … 0.68', ''],
    ]);
  });

  it('says why there is nothing to draw when the exam has no aided/unaided contrast', () => {
    const reason = 'Ability with and without the assistant needs sections.';
    render(
      <AidedAbilityChart
        report={makeAidedInsightsReport({
          candidates: [makeCandidate(1)],
          aidedAbility: {
            available: false,
            reason,
            items: { aided: 0, unaided: 0 },
            population: null,
            gap: null,
            converged: false,
          },
        })}
      />,
    );
    expect(within(chart()).getByTestId('chart-needs')).toHaveTextContent(reason);
    expect(within(chart()).queryByRole('img')).not.toBeInTheDocument();
  });
});
