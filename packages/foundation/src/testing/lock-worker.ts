/** Test support (not exported, not built): a process that increments a counter file under the lock. */
import { readFileSync, writeFileSync } from 'node:fs';
import { setImmediate as yieldTurn } from 'node:timers/promises';
import { withFileLock } from '../lock/with-file-lock.js';

const [lockPath, counterPath, count] = process.argv.slice(2) as [string, string, string];
for (let index = 0; index < Number(count); index++) {
  await withFileLock(lockPath, async () => {
    const value = Number(readFileSync(counterPath, 'utf8'));
    // A turn of the event loop inside the section: a lock that let two holders in would lose increments.
    await yieldTurn();
    writeFileSync(counterPath, String(value + 1));
  });
}
