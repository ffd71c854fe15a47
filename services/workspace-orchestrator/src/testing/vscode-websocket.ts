import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { Socket } from 'node:net';

type Frame = { opcode: number; payload: Buffer };

/** One masked client frame (RFC 6455 section 5.2). */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const length =
    payload.length < 126
      ? Buffer.from([payload.length | 0x80])
      : Buffer.from([126 | 0x80, payload.length >> 8, payload.length & 0xff]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
  return Buffer.concat([Buffer.from([0x80 | opcode]), length, mask, masked]);
}

/** The complete server frames at the start of `data`, and how many bytes they used. */
function readFrames(data: Buffer): Frame[] {
  const frames: Frame[] = [];
  let at = 0;
  while (data.length - at >= 2) {
    let length = data[at + 1]! & 0x7f;
    let header = 2;
    if (length === 126) [length, header] = [data.readUInt16BE(at + 2), 4];
    else if (length === 127) [length, header] = [Number(data.readBigUInt64BE(at + 2)), 10];
    if (data.length - at < header + length) break;
    frames.push({ opcode: data[at]! & 0x0f, payload: data.subarray(at + header, at + header + length) });
    at += header + length;
  }
  return frames;
}

/**
 * Opens VS Code's remote connection WebSocket through the proxy and sends the first message of its
 * protocol (a control message asking to authenticate). Returns the upgrade's status and headers and
 * the first control message VS Code's server sends back.
 */
export function vscodeHandshake(base: string, path: string, headers: Record<string, string>) {
  const key = randomBytes(16).toString('base64');
  return new Promise<{
    status: number;
    accept: string | undefined;
    expectedAccept: string;
    reply: { type?: string } | undefined;
  }>((resolve, reject) => {
    const req = request(new URL(path, base), {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': key,
        ...headers,
      },
    });
    const expectedAccept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    req.on('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, accept: undefined, expectedAccept, reply: undefined });
    });
    req.on('upgrade', (res, socket: Socket, head) => {
      // VS Code's persistent protocol: a 13-byte header (type, id, ack, length) before each message; type 2 is control.
      const body = Buffer.from(
        JSON.stringify({ type: 'auth', auth: '00000000000000000000', data: randomBytes(8).toString('hex') }),
      );
      const header = Buffer.alloc(13);
      header.writeUInt8(2, 0);
      header.writeUInt32BE(body.length, 9);
      socket.write(clientFrame(0x2, Buffer.concat([header, body])));
      let data = Buffer.from(head);
      const done = (reply: { type?: string } | undefined) => {
        clearTimeout(timer);
        socket.destroy();
        resolve({
          status: res.statusCode ?? 0,
          accept: res.headers['sec-websocket-accept'] as string | undefined,
          expectedAccept,
          reply,
        });
      };
      const timer = setTimeout(() => done(undefined), 10_000);
      const scan = () => {
        for (const frame of readFrames(data)) {
          if (frame.opcode === 0x2 && frame.payload[0] === 2)
            return done(JSON.parse(frame.payload.subarray(13).toString('utf8')));
        }
      };
      socket.on('data', (chunk: Buffer) => {
        data = Buffer.concat([data, chunk]);
        scan();
      });
      scan();
    });
    req.on('error', reject);
    req.end();
  });
}
