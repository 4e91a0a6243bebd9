/**
 * Test support (not exported, not built): the program behind the fake `opencode` executable, run as
 * `fake-opencode-main <scenario.json> <opencode arguments…>`. `--version` prints the scenario's version;
 * `serve …` starts the fake server with `OPENCODE_SERVER_PASSWORD` from the environment and prints the
 * address the way `opencode serve` does. It listens on a free port whatever `--port` says, so tests
 * never collide; `--port` is recorded like every other argument.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { FakeOpencodeScenario } from './fake-opencode-scenario.js';
import { startFakeOpencodeServer } from './fake-opencode-server.js';

const [scenarioPath, ...args] = process.argv.slice(2);
const scenario = JSON.parse(readFileSync(scenarioPath ?? '', 'utf8')) as FakeOpencodeScenario;

if (args[0] === '--version') {
  process.stdout.write(`${scenario.version ?? '1.18.33'}\n`);
} else if (args[0] === 'serve' && scenario.failStart === true) {
  process.stderr.write('Error: Configuration is invalid at OPENCODE_CONFIG_CONTENT (scripted)\n');
  process.exitCode = 1;
} else if (args[0] === 'serve') {
  if (scenario.processRecord !== undefined) {
    writeFileSync(
      scenario.processRecord,
      JSON.stringify({ argv: args, env: process.env, cwd: process.cwd(), pid: process.pid }),
    );
  }
  const password = process.env.OPENCODE_SERVER_PASSWORD;
  const server = await startFakeOpencodeServer({
    scenario,
    ...(password === undefined || password === '' ? {} : { password }),
    onDie: () => {
      process.stderr.write('fake opencode: the server crashed (scripted)\n');
      process.exit(3);
    },
  });
  process.stdout.write(`opencode server listening on ${server.url}\n`);
  process.on('SIGTERM', () => {
    void server.close().then(() => process.exit(0));
  });
} else {
  process.stderr.write(`fake opencode: unknown command ${JSON.stringify(args)}\n`);
  process.exitCode = 2;
}
