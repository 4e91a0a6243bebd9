/** One line of what a worker is doing, on its stdout: `<time> <worker> <job> <what>`. */
export type WorkerLog = (jobId: string | undefined, message: string) => void;

/** A log that writes to a stream, one line per call. */
export function streamWorkerLog(workerId: string, write: (text: string) => void): WorkerLog {
  return (jobId, message) => {
    const time = new Date().toISOString().slice(11, 19);
    write(`${time} ${workerId}${jobId === undefined ? '' : ` ${jobId}`} ${message}\n`);
  };
}
