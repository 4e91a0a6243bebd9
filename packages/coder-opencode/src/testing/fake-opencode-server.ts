/**
 * Test support (not exported, not built): a fake OpenCode 1.x server on 127.0.0.1, port 0. It answers the
 * V1 routes the coder uses, with the shapes OpenCode 1.18 sends (see `opencode-events.ts`), and plays a
 * `FakeOpencodeScenario` for each prompt.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import type {
  FakeOpencodeScenario,
  FakePromptBehaviour,
  FakeRequestRecord,
  FakeTokens,
} from './fake-opencode-scenario.js';

/** A running fake server. */
export interface FakeOpencodeServer {
  readonly url: string;
  /** Every request, in order. */
  readonly requests: FakeRequestRecord[];
  /** Session ids created and not deleted. */
  liveSessions(): string[];
  /** Stops listening and drops every connection. */
  close(): Promise<void>;
}

interface Session {
  readonly id: string;
  readonly directory: string;
  readonly messages: { info: Record<string, unknown>; parts: unknown[] }[];
  busy: boolean;
  agent?: ChildProcess;
  finish?: () => void;
}

const html = '<!doctype html>\n<html lang="en"><head><title>OpenCode</title></head><body></body></html>\n';
let counter = 0;
const nextId = (prefix: string) =>
  `${prefix}_fake${Date.now().toString(36)}${(counter++).toString(36).padStart(4, '0')}`;

/** Starts the fake server; `password` turns on Basic auth; `onDie` replaces the in-process "death". */
export async function startFakeOpencodeServer(options: {
  scenario: FakeOpencodeScenario;
  password?: string;
  onDie?: () => void;
}): Promise<FakeOpencodeServer> {
  const { scenario } = options;
  const version = scenario.version ?? '1.18.33';
  const requests: FakeRequestRecord[] = [];
  const sessions = new Map<string, Session>();
  const subscribers = new Set<{ directory: string | undefined; response: ServerResponse }>();
  const sockets = new Set<Socket>();
  const expected =
    options.password === undefined
      ? undefined
      : `Basic ${Buffer.from(`opencode:${options.password}`).toString('base64')}`;

  const emit = (directory: string, type: string, properties: Record<string, unknown>) => {
    const line = `data: ${JSON.stringify({ id: nextId('evt'), type, properties })}\n\n`;
    for (const subscriber of subscribers) {
      if (subscriber.directory === undefined || subscriber.directory === directory)
        subscriber.response.write(line);
    }
  };
  const die = () => {
    if (options.onDie !== undefined) return options.onDie();
    server.close();
    for (const socket of sockets) socket.destroy();
  };

  const setBusy = (session: Session, busy: boolean) => {
    session.busy = busy;
    if (busy) emit(session.directory, 'session.status', { sessionID: session.id, status: { type: 'busy' } });
    else if (scenario.idleEvents !== false) {
      emit(session.directory, 'session.status', { sessionID: session.id, status: { type: 'idle' } });
      emit(session.directory, 'session.idle', { sessionID: session.id });
    }
  };

  const answer = (session: Session, parentID: string, model: Record<string, unknown> | undefined) => {
    const info: Record<string, unknown> = {
      id: nextId('msg'),
      sessionID: session.id,
      role: 'assistant',
      parentID,
      time: { created: Date.now() },
      providerID: model?.providerID ?? 'fake',
      modelID: model?.modelID ?? 'fake-model',
      mode: 'build',
      agent: 'build',
      path: { cwd: session.directory, root: session.directory },
      cost: 0,
      tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
    };
    const message = { info, parts: [] as unknown[] };
    session.messages.push(message);
    emit(session.directory, 'message.updated', { sessionID: session.id, info });
    const part = (value: Record<string, unknown>) => {
      const full = { id: nextId('prt'), sessionID: session.id, messageID: info.id, ...value };
      message.parts.push(full);
      emit(session.directory, 'message.part.updated', {
        sessionID: session.id,
        part: full,
        time: Date.now(),
      });
    };
    const complete = (fields: { tokens?: FakeTokens; cost?: number; error?: unknown; finish?: string }) => {
      Object.assign(info, {
        time: { created: (info.time as { created: number }).created, completed: Date.now() },
        tokens: {
          reasoning: 0,
          cache: { read: 0, write: 0 },
          ...(fields.tokens ?? { input: 100, output: 20 }),
        },
        cost: fields.cost ?? 0,
        ...(fields.error === undefined ? { finish: fields.finish ?? 'stop' } : { error: fields.error }),
      });
      emit(session.directory, 'message.updated', { sessionID: session.id, info });
    };
    return { info, part, complete };
  };

  const play = (
    session: Session,
    behaviour: FakePromptBehaviour,
    prompt: string,
    model: Record<string, unknown> | undefined,
  ) => {
    const user = {
      id: nextId('msg'),
      sessionID: session.id,
      role: 'user',
      time: { created: Date.now() },
      agent: 'build',
    };
    session.messages.push({ info: user, parts: [{ type: 'text', text: prompt }] });
    emit(session.directory, 'message.updated', { sessionID: session.id, info: user });
    setBusy(session, true);
    const reply = answer(session, user.id, model);
    const finish = () => {
      session.finish = undefined;
      setBusy(session, false);
    };
    session.finish = () => {
      reply.complete({
        error: { name: 'MessageAbortedError', data: { message: 'The operation was aborted.' } },
      });
      finish();
    };
    const writeFiles = (files: readonly { path: string; content: string }[]) => {
      for (const file of files) {
        const target = path.join(session.directory, file.path);
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, file.content);
        reply.part({
          type: 'tool',
          tool: 'write',
          callID: nextId('call'),
          state: { status: 'completed', title: file.path, input: { filePath: target } },
        });
      }
    };
    switch (behaviour.kind) {
      case 'write-files':
        setTimeout(() => {
          if (!session.busy) return;
          writeFiles(behaviour.files);
          reply.part({
            type: 'text',
            text: behaviour.text ?? 'Done.',
            time: { start: Date.now(), end: Date.now() },
          });
          reply.complete({ tokens: behaviour.tokens, cost: behaviour.cost });
          finish();
        }, behaviour.delayMs ?? 20);
        return;
      case 'error':
        setTimeout(() => {
          const error = { name: behaviour.name, data: { message: behaviour.message } };
          reply.complete(behaviour.eventOnly === true ? {} : { error });
          emit(session.directory, 'session.error', { sessionID: session.id, error });
          finish();
        }, 20);
        return;
      case 'hang':
        return;
      case 'die':
        setTimeout(() => {
          writeFiles(behaviour.files ?? []);
          die();
        }, 20);
        return;
      case 'ask-permission':
        emit(session.directory, 'permission.asked', {
          id: nextId('per'),
          sessionID: session.id,
          permission: behaviour.permission,
          patterns: ['*'],
          metadata: {},
          always: [],
        });
        return;
      case 'agent': {
        const [command, ...rest] = behaviour.command;
        const modelArguments = model === undefined ? [] : ['--model', `${model.providerID}/${model.modelID}`];
        const agent = spawn(command ?? 'false', [...rest, ...modelArguments, prompt], {
          cwd: session.directory,
          stdio: ['inherit', 'inherit', 'pipe'],
        });
        session.agent = agent;
        let stderr = '';
        agent.stderr?.on('data', (chunk: Buffer) => {
          stderr = (stderr + chunk.toString('utf8')).slice(-4096);
          process.stderr.write(chunk);
        });
        agent.on('close', (code) => {
          session.agent = undefined;
          if (!session.busy) return;
          if (code === 0) {
            reply.part({
              type: 'text',
              text: 'The agent finished.',
              time: { start: Date.now(), end: Date.now() },
            });
            reply.complete({
              tokens: { input: 120, output: 30, reasoning: 5, cache: { read: 40, write: 0 } },
              cost: 0.0042,
            });
          } else {
            const error = {
              name: 'UnknownError',
              data: { message: `the agent exited with code ${code}: ${stderr.trim()}` },
            };
            reply.complete({ error });
            emit(session.directory, 'session.error', { sessionID: session.id, error });
          }
          finish();
        });
        return;
      }
    }
  };

  const send = (response: ServerResponse, status: number, body: unknown) => {
    if (status === 204) return void response.writeHead(204).end();
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://fake.invalid');
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
    const directory = url.searchParams.get('directory') ?? undefined;
    const authorized = expected === undefined || request.headers.authorization === expected;
    const record = { method: request.method ?? 'GET', path: url.pathname, directory, authorized, body };
    requests.push(record);
    if (scenario.requestLog !== undefined) appendFileSync(scenario.requestLog, `${JSON.stringify(record)}\n`);
    if (!authorized) return send(response, 401, { name: 'Unauthorized' });
    const route = `${request.method} ${url.pathname}`;
    if (scenario.api === 'v2') {
      if (route === 'GET /api/info') return send(response, 200, { version: '2.0.3', api: 'v2' });
      return response.writeHead(200, { 'content-type': 'text/html' }).end(html);
    }
    if (route === 'GET /global/health') return send(response, 200, { healthy: true, version });
    if (route === 'GET /event') {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const subscriber = { directory, response };
      subscribers.add(subscriber);
      response.on('close', () => subscribers.delete(subscriber));
      response.write(
        `data: ${JSON.stringify({ id: nextId('evt'), type: 'server.connected', properties: {} })}\n\n`,
      );
      return;
    }
    if (route === 'POST /session') {
      const session: Session = {
        id: nextId('ses'),
        directory: directory ?? process.cwd(),
        messages: [],
        busy: false,
      };
      sessions.set(session.id, session);
      const info = {
        id: session.id,
        slug: 'fake',
        projectID: 'fake',
        directory: session.directory,
        title: body?.title ?? '',
        version,
        time: { created: Date.now(), updated: Date.now() },
      };
      emit(session.directory, 'session.created', { sessionID: session.id, info });
      return send(response, 200, info);
    }
    if (route === 'GET /session/status') {
      const statuses: Record<string, unknown> = {};
      for (const session of sessions.values()) {
        if (session.directory !== directory) continue;
        if (session.busy || (scenario.statusStuckBusy === true && session.messages.length > 0))
          statuses[session.id] = { type: 'busy' };
      }
      return send(response, 200, statuses);
    }
    const match = /^\/session\/([^/]+)(?:\/(prompt_async|message|abort))?$/.exec(url.pathname);
    const session = match?.[1] === undefined ? undefined : sessions.get(decodeURIComponent(match[1]));
    if (match !== null && session === undefined)
      return send(response, 404, { name: 'NotFoundError', data: { message: 'no such session' } });
    if (session !== undefined && match !== null) {
      const action = `${request.method} ${match[2] ?? ''}`;
      if (action === 'POST prompt_async') {
        const parts = (body?.parts ?? []) as { text?: string }[];
        send(response, 204, undefined);
        return play(
          session,
          scenario.prompt,
          parts.map((part) => part.text ?? '').join(''),
          body?.model as Record<string, unknown> | undefined,
        );
      }
      if (action === 'GET message') return send(response, 200, session.messages);
      if (action === 'POST abort') {
        session.agent?.kill('SIGTERM');
        if (session.busy) session.finish?.();
        return send(response, 200, true);
      }
      if (action === 'DELETE ') {
        sessions.delete(session.id);
        return send(response, 200, true);
      }
    }
    // OpenCode 1.x answers unknown paths with its web app, as the real server does.
    response.writeHead(200, { 'content-type': 'text/html' }).end(html);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        send(response, 500, { name: 'UnknownError', data: { message: String(error) } });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    liveSessions: () => [...sessions.keys()],
    close: async () => {
      for (const session of sessions.values()) session.agent?.kill('SIGKILL');
      for (const subscriber of subscribers) subscriber.response.end();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
