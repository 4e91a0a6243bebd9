/**
 * The SDK's one default for the time between SIGTERM and SIGKILL when a coder's process group is stopped.
 * Every supervisor and adapter reads it from here, so a documented default cannot drift from the real one.
 */
export const DEFAULT_KILL_GRACE_MS = 5000;

/**
 * The SDK's one default for how long a CLI may keep running after it printed its final event (see
 * `SubprocessCoderAdapter.isFinalEvent`) before snodo stops its group and keeps the result. CLIs normally
 * exit within a tenth of it.
 */
export const DEFAULT_FINAL_EVENT_GRACE_MS = 3000;
