/**
 * Parameter-recovery study of aided and unaided ability (packages/psychometrics/src/aided-ability.ts): many
 * simulated cohorts with known abilities — (θ_A, θ_U) bivariate normal, SD 1 each, correlation ρ, mean gap
 * μ_A − μ_U — and known difficulties (two different forms, each of mean difficulty 0, the model's anchor).
 * Per replication: the mean error (bias) of the aided θ, unaided θ and gap EAPs over the cohort, their RMSE,
 * the share of candidates whose 95% gap interval holds their true gap, the errors of the cohort's mean gap
 * and ρ, and whether any candidate was flagged (the model holds, so every flag is a false one). The goals:
 * |bias| < 0.1 logit for θ and the gap, coverage 0.92–0.97, at 1,000 candidates × 20 items a set.
 *
 *   node bench/psychometrics-aided.ts [--candidates 1000] [--items 20] [--replications 100] [--rho 0.7] [--gap 0.5]
 */
import { parseArgs } from 'node:util';
import { fitAidedAbility } from '../packages/psychometrics/src/aided-ability.ts';
import { simulateAidedCohort } from '../packages/psychometrics/src/simulate-aided.ts';
import { spreadDifficulties } from '../packages/psychometrics/src/simulate.ts';

const { values } = parseArgs({
  options: {
    candidates: { type: 'string', default: '1000' },
    items: { type: 'string', default: '20' },
    replications: { type: 'string', default: '100' },
    rho: { type: 'string', default: '0.7' },
    gap: { type: 'string', default: '0.5' },
  },
});
const N = Number(values.candidates);
const J = Number(values.items);
const R = Number(values.replications);
const RHO = Number(values.rho);
const GAP = Number(values.gap);

const aidedB = spreadDifficulties(J, -2, 2);
// A different form of the same mean difficulty: alternate items 0.3 harder and easier than an even spread.
const unaidedB = spreadDifficulties(J, -1.5, 1.5).map((b, j) => (j % 2 === 0 ? b + 0.3 : b - 0.3));

interface Replication {
  biasA: number;
  biasU: number;
  biasGap: number;
  rmseA: number;
  rmseU: number;
  rmseGap: number;
  coverageGap: number;
  coverageA: number;
  /** Mean error of the gap among the 10% of candidates with the largest true gaps: the EAP's shrinkage. */
  biasGapTop: number;
  meanGapError: number;
  rhoError: number;
  reliability: number;
  flagged: number;
  iterations: number;
  ms: number;
}

const runs: Replication[] = [];
for (let r = 0; r < R; r += 1) {
  const sim = simulateAidedCohort({
    candidates: N,
    aided: aidedB,
    unaided: unaidedB,
    mean: { aided: GAP, unaided: 0 },
    sd: { aided: 1, unaided: 1 },
    correlation: RHO,
    seed: 1000 + r,
  });
  const start = performance.now();
  const fit = fitAidedAbility(sim.marks, sim.sets);
  const ms = performance.now() - start;
  const sum = { a: 0, u: 0, g: 0, aa: 0, uu: 0, gg: 0, coveredGap: 0, coveredA: 0 };
  const trueGaps = Array.from(sim.aided, (a, c) => a - sim.unaided[c]!);
  const top = [...trueGaps].sort((x, y) => x - y)[Math.floor(0.9 * N)]!;
  let topError = 0;
  let topCount = 0;
  fit.candidates.forEach(({ aided, unaided, gap }, c) => {
    const trueGap = sim.aided[c]! - sim.unaided[c]!;
    const ea = aided.theta! - sim.aided[c]!;
    const eu = unaided.theta! - sim.unaided[c]!;
    const eg = gap.estimate! - trueGap;
    sum.a += ea;
    sum.u += eu;
    sum.g += eg;
    sum.aa += ea * ea;
    sum.uu += eu * eu;
    sum.gg += eg * eg;
    if (gap.low! <= trueGap && trueGap <= gap.high!) sum.coveredGap += 1;
    if (trueGap >= top) {
      topError += eg;
      topCount += 1;
    }
    if (Math.abs(ea) <= 1.959964 * aided.se!) sum.coveredA += 1;
  });
  runs.push({
    biasA: sum.a / N,
    biasU: sum.u / N,
    biasGap: sum.g / N,
    rmseA: Math.sqrt(sum.aa / N),
    rmseU: Math.sqrt(sum.uu / N),
    rmseGap: Math.sqrt(sum.gg / N),
    coverageGap: sum.coveredGap / N,
    coverageA: sum.coveredA / N,
    biasGapTop: topError / topCount,
    meanGapError: fit.gap!.model.mean - GAP,
    rhoError: fit.population!.correlation - RHO,
    reliability: fit.gap!.reliability!,
    flagged: fit.gap!.flagged.above + fit.gap!.flagged.below,
    iterations: fit.iterations,
    ms,
  });
}

const summary = (key: keyof Replication) => {
  const xs = runs.map((run) => run[key]).sort((a, b) => a - b);
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean, min: xs[0]!, max: xs.at(-1)! };
};
const fmt = (x: number) => x.toFixed(3);
console.log(
  `\n${R} cohorts × ${N} candidates × ${J} items a set, ρ = ${RHO}, mean gap ${GAP} (Node ${process.version})\n`,
);
console.log('| figure | mean over cohorts | min | max |');
console.log('|---|---|---|---|');
const rows: [string, keyof Replication][] = [
  ['bias of aided θ (EAP − true)', 'biasA'],
  ['bias of unaided θ', 'biasU'],
  ['bias of the gap', 'biasGap'],
  ['RMSE aided θ', 'rmseA'],
  ['RMSE unaided θ', 'rmseU'],
  ['RMSE gap', 'rmseGap'],
  ['coverage of the 95% gap interval', 'coverageGap'],
  ['coverage of the 95% aided θ interval', 'coverageA'],
  ['mean gap error, top 10% of true gaps (shrinkage)', 'biasGapTop'],
  ['error of the cohort mean gap', 'meanGapError'],
  ['error of ρ', 'rhoError'],
  ['gap reliability', 'reliability'],
  ['candidates flagged (all false)', 'flagged'],
  ['EM iterations', 'iterations'],
  ['fit wall ms', 'ms'],
];
for (const [label, key] of rows) {
  const s = summary(key);
  console.log(`| ${label} | ${fmt(s.mean)} | ${fmt(s.min)} | ${fmt(s.max)} |`);
}
const within = (key: keyof Replication, ok: (x: number) => boolean) => runs.filter((run) => ok(run[key])).length;
const goals = {
  biasTheta: within('biasA', (x) => Math.abs(x) < 0.1) + within('biasU', (x) => Math.abs(x) < 0.1),
  biasGap: within('biasGap', (x) => Math.abs(x) < 0.1),
  coverage: within('coverageGap', (x) => x >= 0.92 && x <= 0.97),
  noFlag: within('flagged', (x) => x === 0),
};
console.log(
  `\nCohorts meeting each goal: |bias θ| < 0.1 ${goals.biasTheta} of ${2 * R} (aided and unaided), ` +
    `|bias gap| < 0.1 ${goals.biasGap} of ${R}, gap coverage 0.92–0.97 ${goals.coverage} of ${R}, ` +
    `no false flag ${goals.noFlag} of ${R}.`,
);
console.log(
  `BENCH_RESULT ${JSON.stringify({
    candidates: N,
    items: J,
    replications: R,
    biasGap: summary('biasGap'),
    coverageGap: summary('coverageGap'),
    goals,
  })}`,
);
