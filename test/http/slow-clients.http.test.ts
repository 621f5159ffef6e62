import { expect } from 'chai';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { sqlite } from '../support/databases.js';
import { startTestServerOn, type TestServer } from '../support/http-server.js';

/** Short, so the test does not wait the production 20 s; the same code path either way. */
const HEADERS_TIMEOUT_MS = 2_000;
/** docs/security.md's bound past the headers timeout. */
const LATENESS_MS = 1_000;
const SLOW_CLIENTS = 50;
const PARTIAL_HEADERS = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ';

/**
 * The server's own socket of each connection, found by the client's port. Its 'close' is the
 * server letting the connection go: the clients here never end their side, so only that frees it.
 */
class ServerSockets {
  private readonly accepted = new Map<number, Socket>();
  private readonly awaited = new Map<number, (socket: Socket) => void>();
  /** When each accepted socket closed, recorded from the moment it was accepted. */
  private readonly closings = new WeakMap<Socket, Promise<number>>();
  private readonly onConnection = (socket: Socket): void => {
    this.closings.set(socket, once(socket, 'close').then(() => performance.now()));
    const port = socket.remotePort ?? 0;
    const waiter = this.awaited.get(port);
    if (waiter === undefined) this.accepted.set(port, socket);
    else waiter(socket);
  };

  constructor(private readonly server: Server) {
    server.on('connection', this.onConnection);
  }

  /** The server's socket of `client`, once the server has accepted it. */
  of(client: Socket): Promise<Socket> {
    const port = client.localPort ?? 0;
    const socket = this.accepted.get(port);
    if (socket !== undefined) return Promise.resolve(socket);
    return new Promise((resolve) => this.awaited.set(port, resolve));
  }

  /** `performance.now()` when the server's socket closed. */
  closedAt(socket: Socket): Promise<number> {
    return this.closings.get(socket)!;
  }

  stop(): void {
    this.server.off('connection', this.onConnection);
  }
}

interface RawClient {
  readonly socket: Socket;
  /** `performance.now()` before connecting: the server's clocks for the connection start later. */
  readonly startedAt: number;
  /** What the server sent, complete once it ended its side. */
  readonly answer: Promise<string>;
}

/** A client that sends `bytes` and never ends its side of the connection, as the attacker of issue 41 did. */
async function rawClient(port: number, bytes: string): Promise<RawClient> {
  const startedAt = performance.now();
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const answer = once(socket, 'end').then(() => received);
  answer.catch(() => undefined);
  await once(socket, 'connect');
  if (bytes !== '') socket.write(bytes);
  return { socket, startedAt, answer };
}

function statusOf(answer: string): number {
  return Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1]);
}

function problemCodeOf(answer: string): unknown {
  return (JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code?: unknown }).code;
}

function connectionsOf(server: Server): Promise<number> {
  return new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

describe('slow clients (issue 41): the headers timeout answers 408 and frees the connection', () => {
  let server: TestServer;
  let sockets: ServerSockets;
  const clients: Socket[] = [];
  before(async () => {
    server = await startTestServerOn(sqlite, { HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS) });
    sockets = new ServerSockets(server.running.server);
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.destroy();
  });
  after(async () => {
    sockets?.stop();
    await server?.stop();
  });

  for (const [what, bytes] of [
    ['whose headers never finish', PARTIAL_HEADERS],
    ['that sends nothing', ''],
  ] as const) {
    it(`closes a connection ${what} with a 408, within HEADERS_TIMEOUT_MS + ${LATENESS_MS} ms`, async function () {
      this.timeout(HEADERS_TIMEOUT_MS + 10_000);
      const client = await rawClient(server.running.port, bytes);
      clients.push(client.socket);
      const closedAt = await sockets.closedAt(await sockets.of(client.socket));
      const answer = await client.answer;
      expect(statusOf(answer), answer).to.equal(408);
      expect(problemCodeOf(answer)).to.equal('request_timeout');
      expect(closedAt - client.startedAt).to.be.within(HEADERS_TIMEOUT_MS, HEADERS_TIMEOUT_MS + LATENESS_MS);
    });
  }

  it('closes a connection whose request it cannot parse, with a 400, though the client keeps its side open', async () => {
    const client = await rawClient(server.running.port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon here\r\n\r\n');
    clients.push(client.socket);
    const closedAt = await sockets.closedAt(await sockets.of(client.socket));
    const answer = await client.answer;
    expect(statusOf(answer), answer).to.equal(400);
    expect(problemCodeOf(answer)).to.equal('malformed_request');
    expect(closedAt - client.startedAt).to.be.below(HEADERS_TIMEOUT_MS);
  });

  it(`answers /healthz while ${SLOW_CLIENTS} slow clients wait, and has as many connections as before once their time is up`, async function () {
    this.timeout(HEADERS_TIMEOUT_MS + 20_000);
    const before = await connectionsOf(server.running.server);
    const slow = await Promise.all(Array.from({ length: SLOW_CLIENTS }, () => rawClient(server.running.port, PARTIAL_HEADERS)));
    clients.push(...slow.map((client) => client.socket));
    const slowSides = await Promise.all(slow.map((client) => sockets.of(client.socket)));
    let slowClosed = 0;
    for (const side of slowSides) void sockets.closedAt(side).then(() => (slowClosed += 1));
    expect(await connectionsOf(server.running.server)).to.equal(before + SLOW_CLIENTS);

    const health = await rawClient(server.running.port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    clients.push(health.socket);
    const healthAnswer = await health.answer;
    expect(slowClosed, 'the slow clients were still connected when /healthz answered').to.equal(0);
    expect(statusOf(healthAnswer), healthAnswer).to.equal(200);

    await Promise.all([...slowSides, await sockets.of(health.socket)].map((side) => sockets.closedAt(side)));
    for (const client of slow) expect(statusOf(await client.answer)).to.equal(408);
    expect(await connectionsOf(server.running.server)).to.equal(before);
  });
});
