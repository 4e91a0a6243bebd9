#!/usr/bin/env node
import { main } from './main.js';

// `snodo task list | head -1` closes stdout early; that is the reader's choice, not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const code = await main(process.argv.slice(2));
process.exitCode = code;
// A library may leave a handle open (a keep-alive socket, a child's pipe); the answer is printed, so leave
// soon anyway. The timer is unref'd: it never keeps the process alive on its own.
setTimeout(() => process.exit(code), 1_000).unref();
