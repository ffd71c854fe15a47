import type Docker from 'dockerode';

/** Runs a command inside a container as the candidate would from the editor's terminal. */
export async function execIn(
  docker: Docker,
  containerId: string,
  cmd: string[],
  opts: { timeoutMs?: number } = {},
): Promise<{ exitCode: number | null; output: string }> {
  const exec = await docker
    .getContainer(containerId)
    .exec({ Cmd: cmd, AttachStdout: true, AttachStderr: true, User: '1000:1000' });
  const stream = await exec.start({ hijack: true, stdin: false });
  let output = '';
  stream.on('data', (chunk: Buffer) => (output += chunk.toString('latin1')));
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      stream.destroy();
      resolve();
    }, opts.timeoutMs ?? 20_000);
    stream.on('end', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  const info = await exec.inspect();
  return { exitCode: info.ExitCode, output };
}

/** The container id behind a session, found by its label. */
export async function containerOf(docker: Docker, sessionId: string): Promise<string> {
  const [container] = await docker.listContainers({ all: true, filters: { label: [`exam.session-id=${sessionId}`] } });
  if (!container) throw new Error(`no container for session ${sessionId}`);
  return container.Id;
}

/** The stdout of execIn's output: the engine's multiplexed frames (an 8-byte header each) taken apart. */
export function stdoutOf(output: string): string {
  const raw = Buffer.from(output, 'latin1');
  const chunks: Buffer[] = [];
  for (let at = 0; at + 8 <= raw.length;) {
    const size = raw.readUInt32BE(at + 4);
    if (raw[at] === 1) chunks.push(raw.subarray(at + 8, at + 8 + size));
    at += 8 + size;
  }
  return Buffer.concat(chunks).toString('utf8');
}
