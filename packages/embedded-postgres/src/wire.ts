// One PGlite database served over the PostgreSQL wire protocol to many client connections, so the services
// `pnpm start` runs share one embedded database (one WebAssembly PostgreSQL in memory, not one per service) and
// reach it with the same DATABASE_URL code path as a real PostgreSQL.
//
// PGlite is a single session: every connection here talks to the same backend. This server keeps that correct
// for the clients the platform uses (postgres.js pools):
// - it runs whole protocol exchanges, never single messages, one at a time: a simple Query, or the extended
//   protocol's Parse/Bind/Describe/Execute up to and including its Sync (or Flush). Interleaving two clients'
//   messages would let one client's Bind replace the other's unnamed portal, and one client's error make the
//   backend skip the other's messages up to a Sync;
// - while the session is inside a transaction (ReadyForQuery says T or E), or in a connection's authentication
//   handshake, only that connection is served; the others wait until it commits or rolls back, as they would
//   wait on row locks;
// - a connection that goes away inside its transaction has it rolled back, and its named prepared statements
//   are deallocated (postgres.js names them at random per connection, so names never collide).
// What a single session cannot give: advisory locks never block between connections (one session holds them
// all), and a client that opens a transaction and then waits for another connection's answer waits forever.
// @electric-sql/pglite-socket (0.0.x, the line for PGlite 0.3) queues single messages, which breaks the first
// point under concurrent pools; hence this small server.
import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** The extended protocol's messages, run together up to their Sync (S) or Flush (H). */
const EXTENDED = new Set(['P', 'B', 'D', 'E', 'C', 'S', 'H']);

type Connection = {
  id: number;
  socket: Socket;
  buffer: Buffer;
  started: boolean;
  /** Messages of an extended-protocol exchange not yet closed by Sync or Flush. */
  pending: Buffer[];
  statements: Set<string>;
  closed: boolean;
};

/** An exchange to run, or (no message) a closed connection's clean-up, done in turn between two exchanges. */
type Job = { connection: Connection; message?: Uint8Array };

export type WireServer = {
  port: number;
  /** Connections open now. */
  connections(): number;
  close(): Promise<void>;
};

export type WireServerOptions = {
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /** Logs a transaction that keeps the others waiting this long (ms); 0 never. */
  slowTransactionMs?: number;
  log?: (line: string) => void;
};

/** The statement name of a Parse message ('P', length, name\0, query\0, ...). */
function parsedName(message: Buffer): string {
  const end = message.indexOf(0, 5);
  return message.toString('utf8', 5, end);
}

/** The transaction status of the backend's last ReadyForQuery ('Z', length 5, status) in an answer, if any. */
function readyStatus(answer: Uint8Array): string | undefined {
  const n = answer.length;
  if (n >= 6 && answer[n - 6] === 0x5a && answer[n - 2] === 5) return String.fromCharCode(answer[n - 1]!);
  return undefined;
}

export async function serveOverWire(db: PGlite, opts: WireServerOptions): Promise<WireServer> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const queue: Job[] = [];
  const connections = new Set<Connection>();
  let nextId = 1;
  let running = false;
  /** The connection whose transaction is open, if one is. */
  let owner: Connection | undefined;
  let ownerSince = 0;
  let warned = false;

  async function execute(message: Uint8Array): Promise<Uint8Array> {
    return db.execProtocolRaw(message);
  }

  /** Runs a statement of the server's own (a rollback, a deallocation) between two clients' exchanges. */
  async function housekeeping(connection: Connection) {
    if (owner === connection) {
      await db.exec('ROLLBACK').catch(() => undefined);
      owner = undefined;
    }
    for (const name of connection.statements) {
      await db.exec(`DEALLOCATE "${name.replaceAll('"', '""')}"`).catch(() => undefined);
    }
    connection.statements.clear();
  }

  function nextJob(): Job | undefined {
    const index = owner ? queue.findIndex((job) => job.connection === owner) : 0;
    if (index < 0) {
      if (!warned && opts.slowTransactionMs && Date.now() - ownerSince > opts.slowTransactionMs && queue.length) {
        warned = true;
        log(
          `embedded-postgres: connection ${owner!.id} has kept a transaction open for ${Date.now() - ownerSince} ms; ${queue.length} exchanges wait`,
        );
      }
      return undefined;
    }
    return queue.splice(index, 1)[0];
  }

  async function drain() {
    if (running) return;
    running = true;
    try {
      for (let job = nextJob(); job; job = nextJob()) {
        const { connection, message } = job;
        if (!message) {
          await housekeeping(connection);
          continue;
        }
        if (connection.closed) continue;
        let answer: Uint8Array;
        try {
          answer = await execute(message);
        } catch (err) {
          log(`embedded-postgres: connection ${connection.id}: ${(err as Error).message}`);
          connection.socket.destroy();
          continue;
        }
        // The session is this connection's from its first message until the backend is ready for a query
        // outside a transaction: through a transaction (status T, or E once failed), an authentication
        // handshake (a password asked, no ReadyForQuery yet), an exchange cut at a Flush.
        const status = readyStatus(answer);
        if (status === 'I') {
          if (owner === connection) {
            owner = undefined;
            warned = false;
          }
        } else if (status || answer.length) {
          if (owner !== connection) ownerSince = Date.now();
          owner = connection;
        }
        if (answer.length && !connection.closed) connection.socket.write(answer);
      }
    } finally {
      running = false;
    }
  }

  function enqueue(connection: Connection, message: Uint8Array | undefined) {
    queue.push({ connection, message });
    void drain();
  }

  function onStartupMessage(connection: Connection, message: Buffer): boolean {
    const code = message.readInt32BE(4);
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
      connection.socket.write('N');
      return true;
    }
    if (code === CANCEL_REQUEST) {
      // Cancelling would stop whichever exchange runs now, possibly another client's: not supported.
      connection.socket.end();
      return true;
    }
    connection.started = true;
    enqueue(connection, message);
    return true;
  }

  function onMessage(connection: Connection, message: Buffer) {
    const type = String.fromCharCode(message[0]!);
    if (type === 'X') {
      connection.socket.end();
      return;
    }
    if (type === 'P') {
      const name = parsedName(message);
      if (name) connection.statements.add(name);
    }
    if (!EXTENDED.has(type)) {
      // A simple Query, a password during the startup, a function call: an exchange of its own.
      enqueue(connection, message);
      return;
    }
    // A Flush with nothing before it (postgres.js sends one after a Sync) has nothing to flush: every
    // exchange's answer is written whole once it ran.
    if (type === 'H' && !connection.pending.length) return;
    connection.pending.push(message);
    if (type === 'S' || type === 'H') {
      const exchange = Buffer.concat(connection.pending);
      connection.pending = [];
      enqueue(connection, exchange);
    }
  }

  function onData(connection: Connection, chunk: Buffer) {
    connection.buffer = connection.buffer.length ? Buffer.concat([connection.buffer, chunk]) : chunk;
    for (;;) {
      const buffer = connection.buffer;
      if (!connection.started) {
        // Before the startup message: length (4 bytes, itself included), then the protocol code.
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return;
        connection.buffer = buffer.subarray(length);
        onStartupMessage(connection, Buffer.from(buffer.subarray(0, length)));
        continue;
      }
      if (buffer.length < 5) return;
      const length = 1 + buffer.readInt32BE(1);
      if (buffer.length < length) return;
      connection.buffer = buffer.subarray(length);
      onMessage(connection, Buffer.from(buffer.subarray(0, length)));
    }
  }

  const server: Server = createServer((socket) => {
    socket.setNoDelay(true);
    const connection: Connection = {
      id: nextId++,
      socket,
      buffer: Buffer.alloc(0),
      started: false,
      pending: [],
      statements: new Set(),
      closed: false,
    };
    connections.add(connection);
    socket.on('data', (chunk) => onData(connection, chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      connection.closed = true;
      connections.delete(connection);
      for (let i = queue.length - 1; i >= 0; i--) if (queue[i]!.connection === connection) queue.splice(i, 1);
      enqueue(connection, undefined);
    });
  });

  async function waitIdle() {
    while (running) await new Promise((resolve) => setImmediate(resolve));
  }

  // PGlite reports at DEBUG level to its session (a notice with every statement parsed): clients get warnings
  // and errors only, as from a default PostgreSQL.
  await db.exec('set client_min_messages = warning');
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : opts.port,
    connections: () => connections.size,
    close: async () => {
      for (const connection of connections) connection.socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await waitIdle();
    },
  };
}
