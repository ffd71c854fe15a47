import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./docker-test-engine.ts', import.meta.url));
const hasDockerd = process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v dockerd']).status === 0;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 200)))
    if (check()) return true;
  return check();
}

// A throwaway second engine (no images, no iptables, no firewall rules): the shared test engine and the
// host's rules are left alone.
describe.skipIf(!hasDockerd)('the test engine’s watchdog', () => {
  const dir = `/tmp/exam-docker-watchdog-${process.pid}`;
  afterAll(async () => {
    const pidFile = join(dir, 'docker.pid');
    if (existsSync(pidFile)) {
      const pid = Number(readFileSync(pidFile, 'utf8'));
      if (alive(pid)) process.kill(pid, 'SIGTERM');
      await until(() => !alive(pid), 20_000);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops the engine a test process started when that process is killed', async () => {
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(SCRIPT)});
         await m.startTestEngine(${JSON.stringify(dir)}, { images: false, hostNetwork: false });
         console.log('up');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const up = await new Promise<boolean>((resolve) => {
      holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('up') && resolve(true));
      holder.on('exit', () => resolve(false));
    });
    expect(up).toBe(true);
    const dockerd = Number(readFileSync(join(dir, 'docker.pid'), 'utf8'));
    expect(alive(dockerd)).toBe(true);
    // While its starter lives, the engine stays.
    await new Promise((r) => setTimeout(r, 2000));
    expect(alive(dockerd)).toBe(true);

    holder.kill('SIGKILL');
    expect(await until(() => !alive(dockerd), 30_000)).toBe(true);
    const watchdog = Number(readFileSync(join(dir, 'watchdog.pid'), 'utf8'));
    expect(await until(() => !alive(watchdog), 5_000)).toBe(true);
  }, 90_000);
});
