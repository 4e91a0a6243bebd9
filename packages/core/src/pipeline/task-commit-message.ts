/**
 * The message of the one commit an attempt makes: `snodo(<job>): <first line of the task>` and trailers
 * naming the job and the coder, the same shape the SDK's in-place base class writes.
 */
export function taskCommitMessage(options: {
  jobId: string;
  task: string;
  coderId: string;
  coderVersion: string | undefined;
}): string {
  const firstLine = options.task.split('\n').find((line) => line.trim() !== '') ?? 'task';
  const subject = firstLine.trim().replace(/\s+/g, ' ');
  const clipped = subject.length > 72 ? `${subject.slice(0, 71)}…` : subject;
  return (
    `snodo(${options.jobId}): ${clipped}\n\n` +
    `Snodo-Job: ${options.jobId}\n` +
    `Snodo-Coder: ${options.coderId}@${options.coderVersion ?? 'unknown'}\n`
  );
}
