// The floor of any gateway on this box: a relay that does nothing but pass the chat to the fake upstream
// and its bytes back (no auth, no database, no checks, no re-framing). `run.ts --relay` puts it where the
// gateway would be, so the run shows what one extra process hop costs by itself at the same rate.
import { Agent, createServer, request } from 'node:http';

const upstream = new URL(`${process.env.OPENAI_BASE_URL}/chat/completions`);
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

createServer((req, res) => {
  if (req.url === '/ready') return void res.end('ok');
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (part: string) => (body += part));
  req.on('end', () => {
    const call = request(
      upstream,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (answer) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.flushHeaders();
        answer.on('data', (part: Buffer) => res.write(part));
        answer.on('end', () => res.end());
      },
    );
    call.setNoDelay(true);
    call.end(body);
  });
}).listen(Number(process.env.PORT), '127.0.0.1', 4096);
