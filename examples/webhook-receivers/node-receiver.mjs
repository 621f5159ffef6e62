#!/usr/bin/env node
// A Specbase webhook receiver that checks both signatures of every delivery, with node:http and
// node:crypto only (Node 18 or later). Guide: docs/webhook-receivers.md.
//
//   WEBHOOK_SECRET      the webhook's secret, as given when it was created or as generated
//   WEBHOOK_TARGET_URL  exactly the webhook's targetUrl (what Specbase posts to, not what this
//                       server sees behind a proxy)
//   PORT                default 3000 (0: any free port); HOST default 127.0.0.1
//
// Prints "listening on http://<host>:<port>" once it listens, "accepted <webhook-id> <event>" for
// each new event and "duplicate <webhook-id>" for a repeat on stdout, "rejected: <reason>" on stderr.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const SECRET = requiredEnv('WEBHOOK_SECRET');
const TARGET_URL = requiredEnv('WEBHOOK_TARGET_URL');
const TOLERANCE_SECONDS = 5 * 60;
const MAX_BODY_BYTES = 1024 * 1024;

function requiredEnv(name) {
  const value = process.env[name];
  if (!value) {
    console.error(`${name} is required`);
    process.exit(2);
  }
  return value;
}

/** HMAC-SHA256 keyed with the secret's UTF-8 bytes, over the parts in order. */
function hmac(...parts) {
  const mac = createHmac('sha256', Buffer.from(SECRET, 'utf8'));
  for (const part of parts) mac.update(part);
  return mac.digest();
}

function constantTimeEqual(a, b) {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** X-Service-Signature: hex HMAC of the target URL immediately followed by the raw body. */
function serviceSignatureProblem(headers, raw) {
  const given = headers['x-service-signature'];
  if (typeof given !== 'string' || !/^[0-9a-f]{64}$/i.test(given)) return 'X-Service-Signature missing or malformed';
  const expected = hmac(Buffer.from(TARGET_URL, 'utf8'), raw);
  return constantTimeEqual(expected, Buffer.from(given, 'hex')) ? null : 'X-Service-Signature does not match';
}

/** Standard Webhooks: "v1," + base64 HMAC of "<webhook-id>.<webhook-timestamp>.<raw body>". */
function standardSignatureProblem(headers, raw, nowSeconds) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return 'webhook-id, webhook-timestamp or webhook-signature missing';
  if (!/^[0-9]{1,15}$/.test(timestamp)) return 'webhook-timestamp malformed';
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return 'webhook-timestamp too far from now';
  const expected = Buffer.from(hmac(Buffer.from(`${id}.${timestamp}.`, 'utf8'), raw).toString('base64'));
  // Standard Webhooks allows several space-separated "v1,<signature>" entries (Specbase sends one): one must match.
  const match = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    return version === 'v1' && signature !== undefined && constantTimeEqual(expected, Buffer.from(signature));
  });
  return match ? null : 'webhook-signature does not match';
}

// Event ids already handled. Keep them in a table with a unique key in production, for longer than
// retries last (about 27 hours by default; a manual redelivery can come any time later).
const seen = new Set();

function handle(event) {
  // Answer first, work afterwards: Specbase waits WEBHOOK_TIMEOUT_MS (10 s by default) for the answer.
  console.log(`accepted ${event.id} ${event.name} ${event.resourceType} ${event.resource?.id ?? ''}`);
}

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405, { Allow: 'POST' }).end();
    return;
  }
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      res.writeHead(413, { Connection: 'close' }).end();
      req.destroy();
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    // Verify the bytes exactly as received: a re-serialised JSON object would not match.
    const raw = Buffer.concat(chunks);
    const problem = serviceSignatureProblem(req.headers, raw) ?? standardSignatureProblem(req.headers, raw, Math.floor(Date.now() / 1000));
    if (problem !== null) {
      console.error(`rejected: ${problem}`);
      res.writeHead(401).end();
      return;
    }
    // webhook-id is covered by webhook-signature; it is the event id, the same on every retry.
    const id = req.headers['webhook-id'];
    if (seen.has(id)) {
      console.log(`duplicate ${id}`);
      res.writeHead(204).end();
      return;
    }
    let event;
    try {
      event = JSON.parse(raw.toString('utf8'));
    } catch {
      res.writeHead(400).end();
      return;
    }
    seen.add(id);
    res.writeHead(204).end();
    setImmediate(() => handle(event));
  });
});

server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1', () => {
  const { address, port } = server.address();
  console.log(`listening on http://${address.includes(':') ? `[${address}]` : address}:${port}`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => server.close(() => process.exit(0)));
