// A separate OS process that appends to an audit log, for the cross-process tests. Run with
// `node --import tsx append-worker.ts <log> <count|forever> <label>`; it prints "ready" after its first
// append so a test can kill it mid-loop.
import { openAuditLog } from '../open-audit-log.js';
import { testRepository } from './test-repository.js';

const [path, countText, label] = process.argv.slice(2);
if (path === undefined || countText === undefined || label === undefined) {
  throw new Error('usage: append-worker <log> <count|forever> <label>');
}
const log = await openAuditLog(path, { repository: testRepository });
const count = countText === 'forever' ? Number.POSITIVE_INFINITY : Number(countText);
for (let index = 0; index < count; index++) {
  await log.append({ type: 'worker-append', actor: label, data: { index, pid: process.pid } });
  if (index === 0) process.stdout.write('ready\n');
}
await log.sync();
await log.close();
