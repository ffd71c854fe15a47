import { describe, expect, it } from 'vitest';
import { auditHeadline, totalEstimate, type AuditFormSummary, type ConfigurationEstimate } from './assistant-audit.ts';

const row = (form: AuditFormSummary['form'], itemsLeaking: number, configuration = 0): AuditFormSummary => ({
  configuration,
  form,
  itemsTried: 12,
  itemsLeaking,
  itemsLeakingRaw: itemsLeaking,
});

describe('auditHeadline', () => {
  it('names the families under which the most items leak, in battery order', () => {
    const summary = [row('direct', 0), row('role-play', 3), row('base64', 3), row('reversed', 1)];
    expect(auditHeadline(summary)).toBe('3 of 12 items leak under role-play, base64');
  });

  it('says when nothing leaked, and when the configuration was not audited', () => {
    expect(auditHeadline([row('direct', 0), row('role-play', 0)])).toBe('No item leaked its answer past the guard.');
    expect(auditHeadline([row('direct', 2)], 1)).toBe('Not audited yet.');
  });
});

describe('totalEstimate', () => {
  const part = (calls: number, costUsd: number | null): ConfigurationEstimate => ({
    provider: 'openai',
    model: 'gpt-4o-mini',
    baseUrl: '',
    calls,
    inputTokens: calls * 100,
    outputTokens: calls * 10,
    costUsd,
  });
  const parts = (cap: number) => ({
    batteryVersion: 'v',
    keyedItems: 2,
    attempts: 50,
    budget: { limit: 10_000, used: 0, remaining: 10_000 },
    cap,
  });

  it('sums calls, tokens and cost, and fits under the cap', () => {
    const estimate = totalEstimate(parts(10_000), [part(10, 0.5), part(20, 0.25)]);
    expect(estimate).toMatchObject({ calls: 30, inputTokens: 3000, outputTokens: 300, costUsd: 0.75, fits: true });
  });

  it('has no cost when one price is unknown, and does not fit over the cap', () => {
    const estimate = totalEstimate(parts(3000), [part(10, 0.5), part(20, null)]);
    expect(estimate.costUsd).toBeNull();
    expect(estimate.fits).toBe(false);
  });
});
