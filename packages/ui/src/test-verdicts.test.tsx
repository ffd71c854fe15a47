import type { TestVerdict } from '@exam/domain/coding';
import { render, screen, within } from '@testing-library/react';
import { getI18n } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { TestVerdicts, verdictSummary } from './test-verdicts.tsx';
import { makeVerdict } from '@exam/domain/testing';

const verdict = (overrides: Partial<TestVerdict>): TestVerdict => makeVerdict(overrides);

describe('verdictSummary', () => {
  it('says every test passes, or names the failing ones with "Test n" for unnamed tests', () => {
    expect(verdictSummary([verdict({}), verdict({ testId: 'b' })])).toBe('All 2 tests pass');
    expect(verdictSummary([verdict({})])).toBe('The test passes');
    expect(
      verdictSummary([
        verdict({ outcome: 'failed' }),
        verdict({ testId: 'b', name: 'Edge' }),
        verdict({ testId: 'c', name: ' ', outcome: 'timeout' }),
      ]),
    ).toBe('2 of 3 tests fail: Small, Test 3');
  });
});

describe('TestVerdicts', () => {
  it('shows expected against actual only for a wrong output that carries both, and error output for a crash', () => {
    render(
      <TestVerdicts
        label="Verdicts"
        showPoints
        verdicts={[
          verdict({ outcome: 'failed', points: 0, expected: '3', actual: '4', timeMs: 1500 }),
          verdict({ testId: 'b', name: 'Hidden one', visible: false, outcome: 'failed', points: 0 }),
          verdict({ testId: 'c', name: 'Crash', outcome: 'runtime-error', points: 0, stderr: 'Traceback' }),
        ]}
      />,
    );
    const wrong = screen.getByRole('listitem', { name: 'Small: Wrong output' });
    expect(within(wrong).getByTestId('verdict-0-expected')).toHaveTextContent('3');
    expect(within(wrong).getByTestId('verdict-0-actual')).toHaveTextContent('4');
    expect(within(wrong).getByText('1.50 s')).toBeInTheDocument();
    expect(within(wrong).getByText('0 / 1 point')).toBeInTheDocument();
    const hidden = screen.getByRole('listitem', { name: 'Hidden one: Wrong output' });
    expect(within(hidden).getByText('Hidden')).toBeInTheDocument();
    expect(within(hidden).queryByText('Expected')).not.toBeInTheDocument();
    expect(screen.getByTestId('verdict-2-stderr')).toHaveTextContent('Traceback');
  });
});

describe('TestVerdicts in Spanish', () => {
  it('names outcomes, hidden tests, times and points in the page’s language', async () => {
    await getI18n().changeLanguage('es');
    try {
      render(
        <TestVerdicts
          label="Veredictos"
          showPoints
          verdicts={[
            verdict({ name: '', outcome: 'failed', points: 0.5, expected: '3', actual: '4', timeMs: 1500 }),
            verdict({ testId: 'b', name: 'Oculta', visible: false, outcome: 'timeout', points: 0 }),
          ]}
        />,
      );
      const wrong = screen.getByRole('listitem', { name: 'Prueba 1: Salida incorrecta' });
      expect(within(wrong).getByText('1,50 s')).toBeInTheDocument();
      expect(within(wrong).getByText('0,5 / 1 punto')).toBeInTheDocument();
      expect(within(wrong).getByText('Esperado')).toBeInTheDocument();
      const hidden = screen.getByRole('listitem', { name: 'Oculta: Límite de tiempo superado' });
      expect(within(hidden).getAllByText('Oculta')).toHaveLength(2);
      expect(verdictSummary([verdict({}), verdict({ testId: 'b', name: '', outcome: 'failed' })])).toBe(
        'Pruebas fallidas: 1 de 2: Prueba 2',
      );
    } finally {
      await getI18n().changeLanguage('en');
    }
  });
});
