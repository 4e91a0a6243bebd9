import { execFileSync } from 'node:child_process';

// Test support only: runs a command on a real pseudo-terminal (python's `pty`), since a pipe cannot show
// what a terminal user sees (raw mode, echo, the window width).

/** What `onPseudoTerminal` runs and types. */
export interface PseudoTerminalRun {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Text to wait for on the screen before typing `typed`. */
  readonly waitFor?: string;
  /** What to type once `waitFor` appeared (or at once). */
  readonly typed?: string;
  /** The window's width in columns. Default 80. */
  readonly columns?: number;
}

const DRIVER = `
import fcntl, json, os, pty, select, struct, sys, termios, time
spec = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.chdir(spec["cwd"])
    os.execve(spec["argv"][0], spec["argv"], spec["env"])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, spec["columns"], 0, 0))
screen = b""
typed = spec["typed"] is None
deadline = time.time() + 60
while time.time() < deadline:
    ready, _, _ = select.select([fd], [], [], 0.2)
    if ready:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        screen += chunk
    if not typed and spec["waitFor"].encode() in screen:
        os.write(fd, spec["typed"].encode())
        typed = True
_, status = os.waitpid(pid, 0)
sys.stdout.write(json.dumps({"screen": screen.decode("utf8", "replace"), "exitCode": os.waitstatus_to_exitcode(status)}))
`;

/**
 * Runs `argv` on a pseudo-terminal of `columns` columns, types `typed` once `waitFor` is on the screen,
 * and returns everything the terminal showed (`\r\n` line ends) and the exit code. The 60 s deadline only
 * stops a hang.
 */
export function onPseudoTerminal(run: PseudoTerminalRun): { screen: string; exitCode: number } {
  const spec = {
    argv: run.argv,
    cwd: run.cwd,
    env: run.env,
    waitFor: run.waitFor ?? '',
    typed: run.typed ?? null,
    columns: run.columns ?? 80,
  };
  const output = execFileSync('python3', ['-c', DRIVER, JSON.stringify(spec)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(output) as { screen: string; exitCode: number };
}
