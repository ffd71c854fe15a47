import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { processRecord } from './process-record.ts';
import type { ProcessRequest, ProcessReply } from './process-worker.ts';

// Replaying an attempt's operations takes milliseconds to tens of milliseconds (bench/README.md): here, so the
// service's event loop keeps answering saves and submits meanwhile (process-worker.ts). At the lowest priority on
// Linux, where a thread's nice value is its own (setpriority(2), NOTES): during a deadline's burst of submissions
// this thread yields the cores to the event loop and PostgreSQL and catches up after. Elsewhere the call would
// lower the whole service, so it is not made.
if (process.platform === 'linux') {
  try {
    setPriority(19);
  } catch {
    // not permitted here: the thread runs at the service's priority
  }
}

parentPort!.on('message', (request: ProcessRequest) => {
  let reply: ProcessReply;
  try {
    reply = { id: request.id, record: processRecord(request.input) };
  } catch (err) {
    reply = { id: request.id, error: (err as Error).message };
  }
  parentPort!.postMessage(reply);
});
