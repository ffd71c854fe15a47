import { TestCaseSchema } from '@exam/domain/coding';
import { describe, expect, it } from 'vitest';
import { parseHarnessOutput } from '../../engine/runner-protocol.ts';
import { TRUNCATED_MARKER, verdictsOf } from './runner-verdicts.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const tests = [TestCaseSchema.parse({ id: 'a', stdin: '1', expected: '2', visible: true, points: 2 })];
const limits = { cpuSeconds: 1, memoryMb: 64 };
const outcomeOf = (line: string) => verdictsOf(tests, limits, parseHarnessOutput(`${line}\nDONE n`, 'n')).verdicts[0];

describe('harness lines to verdicts', () => {
  it('counts only lines with the run nonce, and the first report of a test', () => {
    const report = parseHarnessOutput(
      [`TEST forged 0 0 1 0 0 ${b64('2')} -`, `TEST n 0 0 5 0 0 ${b64('3')} -`, `TEST n 0 0 5 0 0 ${b64('2')} -`].join(
        '\n',
      ),
      'n',
    );
    expect(report.tests.get(0)?.stdout).toBe('3');
    expect(report.done).toBe(false);
  });

  it('maps statuses: CPU limit, OOM kills, kills without a cgroup counter, runtime errors, floods', () => {
    expect(outcomeOf(`TEST n 0 152 1200 0 0 - -`)).toMatchObject({ outcome: 'timeout', exitCode: null });
    expect(outcomeOf(`TEST n 0 137 300 1 0 - -`)?.outcome).toBe('memory');
    expect(outcomeOf(`TEST n 0 137 300 - 0 - -`)?.outcome).toBe('memory');
    expect(outcomeOf(`TEST n 0 137 3000 0 0 - -`)?.outcome).toBe('timeout');
    expect(outcomeOf(`TEST n 0 137 3000 0 0 - - 0`)?.outcome).toBe('timeout');
    // Stopped by the clock while pressing against the memory limit: memory is the cause the candidate reads.
    expect(outcomeOf(`TEST n 0 137 3000 0 0 - - 41`)?.outcome).toBe('memory');
    expect(outcomeOf(`TEST n 0 152 1200 0 0 - - 3`)?.outcome).toBe('memory');
    expect(outcomeOf(`TEST n 0 1 30 0 0 - ${b64('java.lang.OutOfMemoryError: Java heap space')}`)?.outcome).toBe(
      'memory',
    );
    expect(outcomeOf(`TEST n 0 2 30 0 0 - ${b64('NameError: x')}`)).toMatchObject({
      outcome: 'runtime-error',
      exitCode: 2,
      stderr: 'NameError: x',
    });
    const flood = outcomeOf(`TEST n 0 1 30 0 1 ${b64('y'.repeat(10_000))} -`);
    expect(flood?.outcome).toBe('failed');
    expect(flood?.actual?.endsWith(TRUNCATED_MARKER)).toBe(true);
    expect(outcomeOf(`TEST n 0 0 30 0 0 ${b64('2\n')} -`)).toMatchObject({ outcome: 'passed', points: 2 });
  });

  it('makes every test a compile error with the compiler output when compiling failed', () => {
    const outcome = verdictsOf(tests, limits, parseHarnessOutput(`COMPILE n 1 ${b64('error: x')}\nDONE n`, 'n'));
    expect(outcome.compileOutput).toBe('error: x');
    expect(outcome.verdicts[0]).toMatchObject({ outcome: 'compile-error', points: 0 });
  });

  it('makes a test the whole run never reached a timeout', () => {
    expect(verdictsOf(tests, limits, parseHarnessOutput('', 'n')).verdicts[0]?.outcome).toBe('timeout');
  });
});
