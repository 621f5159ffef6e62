import { expect } from 'chai';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { protectedRoutes, type HttpDependencies } from '../../src/adapters/http/app.js';
import type { RouteDefinition } from '../../src/adapters/http/routes.js';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { RegisterOAuthClient } from '../../src/application/identity/clients.use-cases.js';
import { Clock } from '../../src/application/ports/clock.port.js';
import { SCOPES } from '../../src/domain/token/scope.js';
import { forEachDatabase } from '../support/databases.js';
import { FixedClock } from '../support/fakes.js';
import { swaggerFixture } from '../support/fixtures.js';
import { startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

/*
 * A property-based corpus of requests that must fail: wrong types, missing and unknown fields, huge
 * strings, deep nesting, bytes that are not UTF-8, malformed JSON, YAML and multipart, alias bombs,
 * traversal and injection strings in ids, absurd query parameters, wrong media types and encodings,
 * bad credentials, big headers. Every request is invalid by construction, so the property is exact:
 * a 4xx in the route's error shape, an answer within the timeout, and not one row of the database
 * changed (checked after every request). Each route has its own property, seeded with SEED plus its
 * index: running the suite again sends the same requests, and fast-check prints the one that failed.
 */
/** Fixed, so that a failure reproduces; BAD_INPUT_SEED explores others. */
const SEED = Number(process.env['BAD_INPUT_SEED'] ?? 7_2026);
const RUNS_PER_ROUTE = 30;
/** Routes behind HTTP Basic check a scrypt hash per request: fewer runs keep the suite fast. */
const RUNS_WITH_PASSWORD = 10;
/** Import and spec updates have the most ways to be wrong. */
const RUNS_FOR_SPECS = 64;
const TIMEOUT_MS = 5_000;
const JSON_LIMIT = 4096;
const IMPORT_LIMIT = 64 * 1024;
const IDENTITY_FORM_LIMIT = 16 * 1024;
const REDIRECT = 'http://127.0.0.1:9/callback';
const PASSWORD = 'a long passphrase';

/** Tables whose rows count requests rather than hold data: every request may change them by design. */
const COUNTER_TABLES = new Set(['rate_limits']);

type Expect = 'problem' | 'oauth' | 'google' | 'status';

/** One request of the corpus. */
interface Probe {
  readonly route: string;
  /** What makes it invalid. */
  readonly why: string;
  readonly method: string;
  /** The request target as sent: percent-encoded where it means to be. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
  /** Sent with Transfer-Encoding: chunked instead of Content-Length. */
  readonly chunked?: boolean;
  readonly expect: Expect;
}

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly ms: number;
}

/** What the seed created: real ids appear in paths so that requests reach validation. */
interface World {
  readonly ada: TestUser;
  readonly bearer: string;
  readonly basic: string;
  readonly otherAccountId: number;
  readonly apiId: string;
  readonly otherApiId: string;
  readonly version: string;
  readonly pageId: string;
  /** The slug of another page of the API, and the nickname of another API of the account: duplicates. */
  readonly otherSlug: string;
  readonly otherNickname: string;
  readonly shareId: string;
  readonly webhookId: string;
  readonly deliveryId: string;
  readonly tokenId: string;
  readonly apiNickname: string;
  readonly emails: { readonly own: string; readonly shared: string; readonly free: string };
  readonly client: { readonly id: string; readonly secret: string };
  readonly publicClientId: string;
  readonly kid: string;
  readonly issuer: string;
}

// ---- Building blocks ------------------------------------------------------------------------

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value), 'utf8');
const form = (pairs: readonly (readonly [string, string])[]): Buffer => Buffer.from(new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, v])).toString(), 'latin1');
const basicOf = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

function withQuery(path: string, query: readonly (readonly [string, string])[]): string {
  if (query.length === 0) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query.map(([k, v]) => `${k}=${v}`).join('&')}`;
}

/** encodeURIComponent that cannot throw: lone surrogates become U+FFFD first. */
function encode(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udfff]/gu, '\ufffd'));
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Byte sequences that are not UTF-8: a lone continuation byte, an overlong form, a surrogate, beyond U+10FFFF, a truncated sequence. */
const NOT_UTF8: readonly number[][] = [[0xff], [0xfe, 0xff], [0xc3, 0x28], [0xc0, 0xae], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80, 0x80, 0x80]];
const notUtf8 = fc.constantFrom(...NOT_UTF8).map((bytes) => Buffer.from(bytes));

const INJECTIONS = [
  "' OR '1'='1",
  '1; DROP TABLE apis; --',
  "'; SELECT pg_sleep(10); --",
  "1' AND sleep(10)#",
  '" OR ""="',
  '$(reboot)',
  '`id`',
  '{{7*7}}',
  '${7*7}',
  '${jndi:ldap://127.0.0.1/a}',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '/etc/passwd\u0000.png',
  '\u0000',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '__proto__',
  'constructor',
  '{"$gt": ""}',
  '\u202egnp.exe',
  '\ufeff',
  '%s%s%s%n',
  'Ω≈ç√∫˜µ≤≥÷',
  '🦄🦄🦄',
  '\ud800',
];
const injection = fc.constantFrom(...INJECTIONS);
const hugeString = fc.integer({ min: 1_000, max: 6_000 }).map((n) => 'x'.repeat(n));
const anyText = fc.oneof(injection, hugeString, fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 }));

/** `depth` nested arrays or objects: deep nesting that stays small in bytes. */
const deep = fc.tuple(fc.integer({ min: 20, max: 1_500 }), fc.boolean()).map(([depth, arrays]) => {
  let value: unknown = arrays ? [] : {};
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
  return value;
});

/** A value of the wrong type for a string, boolean or list field. `null` only where the field is required (an optional `null` means "absent"). */
function wrongType(allowNull: boolean, not: 'string' | 'boolean' | 'array' = 'string'): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [
    fc.integer(),
    // Finite: JSON has no Infinity, and would send null, which an optional field takes for "absent".
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, -1, 1e308, Number.MAX_SAFE_INTEGER + 2),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    deep,
  ];
  if (not !== 'boolean') options.push(fc.boolean());
  if (not !== 'array') options.push(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }));
  if (not !== 'string') options.push(anyText);
  if (allowNull) options.push(fc.constant(null));
  return fc.oneof(...options);
}

/** Header values: printable ASCII, or Latin-1 bytes (not UTF-8), or big within Node's 16 KiB header limit. */
const headerValue = fc.oneof(
  fc.stringMatching(/^[\x21-\x7e][\x20-\x7e]{0,100}$/),
  fc.constantFrom('\u00ff\u00fe\u00c3\u0028', "'; DROP TABLE users; --", '../../etc/passwd', '${jndi:ldap://127.0.0.1/a}'),
  fc.integer({ min: 1_000, max: 3_000 }).map((n) => 'h'.repeat(n)),
);

const noiseHeaders = fc.array(
  fc.oneof(
    fc.tuple(fc.constant('X-Junk'), headerValue),
    fc.tuple(fc.constant('X-Request-Id'), headerValue),
    fc.tuple(fc.constant('Accept'), fc.constantFrom('*/*', 'application/xml', 'text/html', 'image/png', ';;;', 'application/problem+json; q=0')),
    fc.tuple(fc.constant('Accept-Language'), fc.constantFrom('xx', 'en;q=2', '*', '\u00ff')),
    fc.tuple(fc.constant('X-Forwarded-For'), fc.constantFrom('127.0.0.1', '::1', '1.1.1.1, 10.0.0.1', 'garbage', 'x'.repeat(2500))),
    fc.tuple(fc.constant('Cookie'), fc.constantFrom('sb_session=garbage', 'a=b; c', '=;=;', `sb_session=${'s'.repeat(2000)}`)),
    fc.tuple(fc.constant('Host'), fc.constantFrom('evil.example', '127.0.0.1:1', `${'h'.repeat(300)}.example`)),
    fc.tuple(fc.constant('Range'), fc.constantFrom('bytes=0-0', 'bytes=-1', 'lines=1-2')),
    fc.tuple(fc.constant('If-None-Match'), fc.constantFrom('*', '"1"', 'W/"x"')),
  ),
  { maxLength: 2 },
);

const NOISE_QUERY_NAMES = ['zz', 'a%5Bb%5D', '__proto__', 'constructor', 'hasOwnProperty', '%E2%80%AE', 'x%00', 'callback', 'q'];
const queryValue = fc.oneof(
  fc.constantFrom('', '%', '%zz', '%00', '%C3%28', '%FF', '..%2F..%2Fetc%2Fpasswd', '1%27%20OR%20%271%27%3D%271', '%7B%7B7*7%7D%7D'),
  anyText.map((s) => encode(s.slice(0, 600)).slice(0, 1_500)),
);
const noiseQuery = fc.array(fc.tuple(fc.constantFrom(...NOISE_QUERY_NAMES), queryValue), { maxLength: 2 });

/** Adds harmless noise (unknown query parameters, odd headers) to a probe; it cannot make a failing request succeed. */
function noisy(probes: fc.Arbitrary<Probe>): fc.Arbitrary<Probe> {
  return fc.tuple(probes, noiseQuery, noiseHeaders).map(([probe, query, headers]) => {
    const decorated: Probe = { ...probe, path: withQuery(probe.path, query), headers: { ...Object.fromEntries(headers), ...probe.headers } };
    // fast-check prints a counterexample with this: the request, not a dump of its Buffer.
    return Object.assign(decorated, { [fc.toStringMethod]: () => describeProbe(decorated) });
  });
}

// ---- Ids in paths ----------------------------------------------------------------------------

const LITERAL_SEGMENTS = new Set(['import', 'spec', 'export', 'endpoints', 'models', 'environments', 'auth-adapters', 'releases', 'deprecate', 'end-of-life', 'pages', 'shares', 'activate', 'deactivate', 'ping', 'deliveries', 'redeliver', 'tokens', 'password']);

/** Path segments that name nothing: traversal, injection, bytes that are not UTF-8 once decoded, huge, malformed escapes. */
const NASTY_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '%252e%252e%252f',
  '..%5C..%5Cwin.ini',
  '%00',
  'a%00b',
  '%C3%28',
  '%FF%FE',
  '%ED%A0%80',
  '%F4%90%80%80',
  '%C0%AE%C0%AE',
  '%E2%80%AE',
  '%',
  '%zz',
  '%%32%65',
  "'%20OR%20'1'%3D'1",
  '1%3BDROP%20TABLE%20apis',
  '%27%3B%20SELECT%20pg_sleep(10)%3B--',
  '%7B%7B7*7%7D%7D',
  '%24%7Bjndi%3Aldap%3A%2F%2F127.0.0.1%2Fa%7D',
  '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  '__proto__',
  'constructor',
  'prototype',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-7FFF-BFFF-FFFFFFFFFFFF',
  '1e3',
  '0x1',
  '%20',
  '+',
  '~',
  '*',
  '%2F',
];

const bogusSegment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_SEGMENTS) },
  { weight: 2, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9._~-]{1,40}$/) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(encode) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 12 }).map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('')) },
  { weight: 1, arbitrary: fc.integer({ min: 300, max: 1_500 }).map((n) => 'i'.repeat(n)) },
  { weight: 1, arbitrary: injection.map(encode) },
);

function bogusFor(param: string, real: string, world: World): fc.Arbitrary<string> {
  const extra: string[] =
    param === 'accountId'
      ? [String(world.otherAccountId), '999999', '2147483648', '4294967296', '9007199254740991', '9007199254740993', '99999999999999999999', '1.0', `0${real}`, `+${real}`, `${real}abc`, `-${real}`]
      : param === 'version'
        ? ['9.9.9', '1.0.0-rc.1', '1.0', 'v1.0.0', '1.0.0%2B', '1.0.00', 'latest']
        : [world.otherApiId, '00000000-0000-7000-8000-000000000000'];
  return fc
    .oneof({ weight: 1, arbitrary: fc.constantFrom(...extra) }, { weight: 3, arbitrary: bogusSegment })
    .filter((segment) => segment !== '' && safeDecode(segment) !== real && !LITERAL_SEGMENTS.has(safeDecode(segment).toLowerCase()));
}

const paramsOf = (template: string): string[] => [...template.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);

function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/:([A-Za-z]+)/g, (_, name: string) => values[name] ?? `:${name}`);
}

// ---- JSON bodies -----------------------------------------------------------------------------

interface Field {
  readonly required: boolean;
  /** Values the route accepts. */
  readonly valid: fc.Arbitrary<unknown>;
  /** Values the route refuses, whatever the other fields hold. */
  readonly invalid: fc.Arbitrary<unknown>;
}
type BodySpec = Readonly<Record<string, Field>>;

const required = (valid: fc.Arbitrary<unknown>, invalid: fc.Arbitrary<unknown>): Field => ({ required: true, valid, invalid });
const optional = (valid: fc.Arbitrary<unknown>, invalid: fc.Arbitrary<unknown>): Field => ({ required: false, valid, invalid });

const badNickname = fc.oneof(fc.constantFrom('', 'UPPER', 'with space', '..', '...', 'a/b', 'n'.repeat(65), 'ünïcode', '../../etc', "x'; DROP TABLE apis; --"), injection.filter((s) => !/^[a-z0-9_.-]{1,64}$/.test(s) || /^\.+$/.test(s)));
const badVersion = fc.oneof(fc.constantFrom('', ' 1.0', '1.0 final', '../1', '1/0', '-1', '.1', 'v'.repeat(65), '1.0.0\n', '1%2F0'), injection.filter((s) => !/^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/.test(s)));
const badSlug = fc.oneof(fc.constantFrom('', 'Intro', 'with space', 'a_b', 'a.b', '../x', 's'.repeat(65), 'ünï'), injection.filter((s) => !/^[a-z0-9-]{1,64}$/.test(s)));
const badUrl = fc.constantFrom('not a url', 'ftp://93.184.215.14/x', 'javascript:alert(1)', 'file:///etc/passwd', 'https://user:pw@93.184.215.14/x', 'http://127.0.0.1:9/x', 'http://[::1]/x', 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/', `https://93.184.215.14/${'p'.repeat(2100)}`, '//93.184.215.14/x', '');
const badTitle = fc.oneof(fc.constantFrom('', '   ', '\t\n'), fc.integer({ min: 201, max: 400 }).map((n) => 't'.repeat(n)));
const badEmail = (world: World) => fc.constantFrom('not-an-email', 'a@b', '@example.com', 'nobody@example.com', 'a\u0000b@example.com', 'x'.repeat(250) + '@example.com', world.emails.own, world.emails.shared, "a'; DROP TABLE users;--@example.com");
const badRole = fc.oneof(fc.constantFrom('owner', 'admin', 'Viewer', 'EDITOR', '', ' viewer'), injection);
const badScopes = fc.oneof(fc.constant([]), fc.constant(['admin']), fc.constant(['api', 'root']), fc.constant('api'), fc.array(fc.integer(), { minLength: 1, maxLength: 3 }), fc.array(injection, { minLength: 1, maxLength: 3 }));
const badEvents = fc.oneof(fc.constant([]), fc.constant(['api.updated']), fc.constant(['*']), fc.array(fc.integer(), { minLength: 1, maxLength: 2 }), fc.array(injection, { minLength: 1, maxLength: 2 }));

function bodySpecs(world: World): Readonly<Record<string, BodySpec>> {
  const apiFields = (isRequired: boolean) => ({
    name: (isRequired ? required : optional)(fc.constantFrom('Fresh API', 'Another one'), fc.oneof(wrongType(isRequired), badTitle)),
    nickname: (isRequired ? required : optional)(fc.constantFrom('fresh-api', 'another.one'), fc.oneof(wrongType(isRequired), badNickname, fc.constant(world.otherNickname))),
    type: optional(fc.constantFrom('private', 'public'), fc.oneof(wrongType(false), fc.constantFrom('secret', 'PUBLIC', '', 'internal'), injection)),
  });
  const webhookFields = (isRequired: boolean) => ({
    targetUrl: (isRequired ? required : optional)(fc.constant('https://93.184.215.14/hook'), fc.oneof(wrongType(isRequired), badUrl)),
    events: (isRequired ? required : optional)(fc.constant(['api.created']), fc.oneof(wrongType(isRequired, 'array'), badEvents)),
    secret: optional(fc.constant('a secret of sixteen+ characters'), fc.oneof(fc.constantFrom('short', '', 's'.repeat(257)), fc.integer(), fc.boolean())),
  });
  const pageFields = (isRequired: boolean) => ({
    title: (isRequired ? required : optional)(fc.constant('Getting started'), fc.oneof(wrongType(isRequired), badTitle)),
    slug: (isRequired ? required : optional)(fc.constantFrom('getting-started', 'quick-start'), fc.oneof(wrongType(isRequired), badSlug, fc.constant(world.otherSlug))),
    body: (isRequired ? required : optional)(fc.constantFrom('# Hello', ''), wrongType(isRequired, 'string')),
    position: optional(fc.integer({ min: 0, max: 1_000_000 }), fc.oneof(fc.constantFrom(-1, 1.5, 1_000_001, '1', Number.MAX_SAFE_INTEGER + 2, 1e308), fc.boolean(), deep)),
  });
  const profileText = fc.oneof(wrongType(false, 'string'), fc.constantFrom('', '   '), fc.integer({ min: 201, max: 300 }).map((n) => 'n'.repeat(n)));
  return {
    'POST /api/:accountId': apiFields(true),
    'PATCH /api/:accountId/:apiId': apiFields(false),
    'POST /api/:accountId/:apiId/releases': { version: required(fc.constantFrom('2.0.0', '2026-11', 'v3-beta.1+build.7'), fc.oneof(wrongType(true), badVersion, fc.constant(world.version))) },
    'POST /webhooks/:accountId': { ...webhookFields(true), active: optional(fc.boolean(), wrongType(false, 'boolean')) },
    'PATCH /webhooks/:accountId/:webhookId': webhookFields(false),
    'PATCH /user': {
      nickname: optional(fc.constantFrom('ada', 'ada.lovelace'), fc.oneof(wrongType(false), badNickname)),
      name: optional(fc.constantFrom('Ada Lovelace', null), profileText),
      givenName: optional(fc.constantFrom('Ada', null), profileText),
      familyName: optional(fc.constantFrom('Lovelace', null), profileText),
      picture: optional(fc.constantFrom('https://93.184.215.14/ada.png', null), fc.oneof(wrongType(false), fc.constantFrom('javascript:alert(1)', 'ftp://x/y.png', 'not a url', '/relative.png', `https://x.example/${'p'.repeat(2100)}`))),
      locale: optional(fc.constantFrom('en', 'pt-BR', null), fc.oneof(wrongType(false), fc.constantFrom('english', 'e', 'en_US', 'en-', '12', 'en-verylongsubtag'), injection.filter((s) => !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/.test(s)))),
    },
    'PUT /user/password': {
      currentPassword: required(fc.constant(PASSWORD), fc.oneof(wrongType(true), fc.constantFrom('wrong password', '', PASSWORD.toUpperCase()))),
      newPassword: required(fc.constant('an entirely new passphrase'), fc.oneof(wrongType(true), fc.constantFrom('short', 'aaaaaaaaaaaa', 'ababababababab', `my ${world.emails.own} pass`, 'p'.repeat(257)))),
    },
    'POST /api/:accountId/:apiId/pages': pageFields(true),
    'PATCH /api/:accountId/:apiId/pages/:pageId': pageFields(false),
    'POST /api/:accountId/:apiId/shares': { email: required(fc.constant(world.emails.free), fc.oneof(wrongType(true), badEmail(world))), role: required(fc.constantFrom('viewer', 'editor'), fc.oneof(wrongType(true), badRole)) },
    'PATCH /api/:accountId/:apiId/shares/:shareId': { role: required(fc.constant('editor'), fc.oneof(wrongType(true), badRole)) },
    'POST /user/tokens': {
      name: required(fc.constant('ci'), fc.oneof(wrongType(true), badTitle.map((t) => (t.length > 200 ? t.slice(0, 101) : t)))),
      scopes: required(fc.constant(['api.readonly']), fc.oneof(wrongType(true, 'array'), badScopes)),
    },
    'POST /user/email/verify': { token: required(fc.constant(`sbv_${'A'.repeat(43)}`), fc.oneof(wrongType(true), fc.constantFrom(`sbv_${'B'.repeat(43)}`, 'sbv_', `sbv_${'x'.repeat(200)}`))) },
  };
}

/** Keys no route declares, including Object.prototype's member names. */
const UNKNOWN_KEYS = ['id', 'accountId', 'owner', 'revision', 'admin', 'isAdmin', 'userId', 'creationDate', '__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', '__defineGetter__', '', ' ', 'NAME', 'name ', "'; DROP TABLE apis; --", '../../etc/passwd', '$where', 'k'.repeat(300)];

const validBody = (spec: BodySpec): fc.Arbitrary<Record<string, unknown>> =>
  fc.record(Object.fromEntries(Object.entries(spec).map(([name, field]) => [name, field.valid])), {
    requiredKeys: Object.entries(spec)
      .filter(([, f]) => f.required)
      .map(([name]) => name),
  });

/** A JSON object the route must refuse: a valid body with one field made invalid, one required field left out, or an unknown field added. */
function brokenBody(spec: BodySpec): fc.Arbitrary<{ readonly value: Record<string, unknown>; readonly why: string }> {
  const names = Object.keys(spec);
  const requiredNames = names.filter((n) => spec[n]!.required);
  const unknown = fc
    .tuple(validBody(spec), fc.oneof(fc.constantFrom(...UNKNOWN_KEYS), fc.string({ unit: 'binary', maxLength: 12 })), fc.jsonValue({ maxDepth: 2 }))
    .filter(([, key]) => !names.includes(key))
    .map(([body, key, value]) => {
      const copy: Record<string, unknown> = { ...body };
      Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
      return { value: copy, why: `unknown field ${JSON.stringify(key).slice(0, 40)}` };
    });
  const invalid = fc.constantFrom(...names).chain((name) =>
    fc.tuple(validBody(spec), spec[name]!.invalid).map(([body, value]) => ({ value: { ...body, [name]: value }, why: `invalid ${name}` })),
  );
  const options = [unknown, invalid];
  if (requiredNames.length > 0) {
    options.push(
      fc.tuple(validBody(spec), fc.constantFrom(...requiredNames)).map(([body, name]) => {
        const copy: Record<string, unknown> = { ...body };
        delete copy[name];
        return { value: copy, why: `missing ${name}` };
      }),
    );
  }
  return fc.oneof(...options);
}

interface Encoded {
  readonly headers: Record<string, string>;
  readonly body?: Buffer;
  readonly chunked?: boolean;
  readonly why: string;
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/merge-patch+json', 'application/vnd.specbase+json'];
/** Media types a JSON route refuses (415): not JSON, or JSON in a charset other than UTF-8. */
const NOT_JSON_TYPES = ['text/plain', 'application/xml', 'text/json', 'application/javascript', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/json; charset=bogus', 'application/octet-stream'];

/**
 * Encodings of a JSON route's body that must fail: a refused JSON object sent in any acceptable way
 * (plain, chunked, gzip, with an unknown field whose name is not UTF-8), or any body (even a valid
 * one) malformed, too large, in a refused media type or in a content encoding it does not match.
 */
function jsonEncodings(spec: BodySpec, acceptsForm = false): fc.Arbitrary<Encoded> {
  const broken = brokenBody(spec);
  const valid = validBody(spec);
  const text = (value: unknown) => JSON.stringify(value);
  const notJson = NOT_JSON_TYPES.filter((t) => !(acceptsForm && t === 'application/x-www-form-urlencoded'));
  return fc.oneof(
    { weight: 4, arbitrary: fc.tuple(broken, fc.constantFrom(...JSON_TYPES), fc.boolean()).map(([b, type, chunked]) => ({ headers: { 'Content-Type': type }, body: json(b.value), chunked, why: b.why })) },
    {
      weight: 1,
      arbitrary: fc.tuple(broken, fc.constantFrom('gzip', 'deflate', 'br')).map(([b, encoding]) => ({
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding },
        body: (encoding === 'gzip' ? gzipSync : encoding === 'deflate' ? deflateSync : brotliCompressSync)(json(b.value)),
        why: `${b.why}, ${encoding}`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.oneof(valid, broken.map((b) => b.value)), notUtf8).map(([value, bytes]) => {
        const serialized = json(value);
        const open = serialized.length > 2 ? Buffer.from(',"k', 'utf8') : Buffer.from('"k', 'utf8');
        return { headers: { 'Content-Type': 'application/json' }, body: Buffer.concat([serialized.subarray(0, -1), open, bytes, Buffer.from('":1}', 'utf8')]), why: 'an unknown field whose name is not UTF-8' };
      }),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.oneof(valid, broken.map((b) => b.value)), fc.constantFrom(...notJson)).map(([value, type]) => ({ headers: { 'Content-Type': type }, body: json(value), why: `media type ${type}` })),
    },
    { weight: 1, arbitrary: fc.oneof(valid, broken.map((b) => b.value)).map((value) => ({ headers: {}, body: json(value), why: 'no Content-Type' })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.oneof(valid, broken.map((b) => b.value)), fc.nat())
        .map(([value, cut]) => {
          const full = text(value);
          return full.slice(0, cut % full.length);
        })
        .map((truncated) => ({ headers: { 'Content-Type': 'application/json' }, body: Buffer.from(truncated, 'utf8'), why: 'truncated JSON' })),
    },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constantFrom('{', '}', '{"a":1,}', "{'name':'x'}", '{"a":NaN}', '{"a":undefined}', '{a:1}', '{"a":1} {"b":2}', '{"a":1}/*c*/', '\ufeff{"x":1', 'nul', 'tru', '{"a":"\\x"}', '{"a":"\u0001"}', '[}', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}'),
          fc.constantFrom('null', 'true', '0', '"text"', '[]', '[{}]', '1e999'),
          deep.map((value) => text(value)).filter((t) => t.startsWith('[')),
          fc.integer({ min: 200, max: 1_800 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`.replace(/^\{"a":/, '{"zz":')),
          fc.string({ unit: 'binary', maxLength: 60 }).filter((s) => !/^\s*\{/.test(s)),
          fc.uint8Array({ minLength: 1, maxLength: 60 }).map((bytes) => Buffer.concat([Buffer.from([0xff]), Buffer.from(bytes)]).toString('latin1')),
        )
        .map((t) => ({ headers: { 'Content-Type': 'application/json' }, body: Buffer.from(t, t.startsWith('\u00ff') ? 'latin1' : 'utf8'), why: 'malformed or non-object JSON' })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, fc.integer({ min: JSON_LIMIT + 1, max: 4 * JSON_LIMIT })).map(([value, size]) => ({
        headers: { 'Content-Type': 'application/json' },
        body: Buffer.from(`${text(value).slice(0, -1)}${Object.keys(value).length > 0 ? ',' : ''}"pad":"${'p'.repeat(size)}"}`, 'utf8'),
        why: 'over JSON_MAX_BYTES',
      })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, fc.integer({ min: 100_000, max: 3_000_000 })).map(([value, spaces]) => ({
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        body: gzipSync(Buffer.from(`${text(value).slice(0, -1)}${' '.repeat(spaces)}}`, 'utf8')),
        why: 'a gzip bomb: valid JSON padded with whitespace beyond JSON_MAX_BYTES',
      })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.oneof(valid, broken.map((b) => b.value)), fc.constantFrom('gzip', 'deflate', 'br', 'x-bogus', 'compress', 'gzip, gzip', 'identity, x-bogus')).map(([value, encoding]) => ({
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding },
        body: json(value),
        why: `Content-Encoding ${encoding} over bytes that are not encoded so`,
      })),
    },
    { weight: 1, arbitrary: fc.constantFrom<Encoded>({ headers: { 'Content-Type': 'application/json' }, body: Buffer.alloc(0), why: 'an empty body' }, { headers: { 'Content-Type': 'application/json' }, why: 'no body at all' }) },
  );
}

// ---- Specs and multipart ---------------------------------------------------------------------

const petstoreYaml = swaggerFixture('petstore.yaml').bytes;
const petstoreJson = swaggerFixture('petstore.json').bytes;

function aliasBomb(levels: number, width: number): string {
  const names = 'abcdefghijklmnop'.slice(0, levels);
  const lines = [`a: &a [${Array(width).fill('"lol"').join(',')}]`];
  for (let i = 1; i < names.length; i++) lines.push(`${names[i]}: &${names[i]} [${Array(width).fill(`*${names[i - 1]}`).join(',')}]`);
  return lines.join('\n');
}

/** Documents no import or spec update may accept: unparseable, not UTF-8, too deep, alias bombs, of no accepted format, invalid, too large. */
const badSpec: fc.Arbitrary<{ readonly bytes: Buffer; readonly why: string }> = fc.oneof(
  fc.constantFrom(
    { bytes: Buffer.from('swagger: "2.0"\ninfo:\n  title: a: b\n'), why: 'YAML that does not parse' },
    { bytes: Buffer.from('{"swagger": "2.0", "info": '), why: 'truncated JSON' },
    { bytes: Buffer.from('openapi: 3.2.0\ninfo: {title: T, version: "1"}\npaths: {}\n'), why: 'OpenAPI 3.2 (not an accepted version)' },
    { bytes: Buffer.from('openapi: 3.1.0\ninfo: {title: T, version: "1"}\npaths: {/a: {get: {parameters: [{name: q, in: body}]}}}\n'), why: 'OpenAPI 3.1 with a parameter in body' },
    { bytes: Buffer.from('swagger: "2.0"\npaths: {}\n'), why: 'Swagger 2.0 without info' },
    { bytes: Buffer.from('swagger: "2.0"\ninfo: {title: T, version: "1"}\npaths:\n  /a: {get: {operationId: x, responses: {200: {description: ok}}}}\n  /b: {get: {operationId: x, responses: {200: {description: ok}}}}\n'), why: 'a duplicate operationId' },
    { bytes: Buffer.from('swagger: "2.0"\ninfo: {title: T, version: "1"}\npaths:\n  /a: {get: {responses: {200: {description: ok, schema: {$ref: "#/definitions/Nope"}}}}}\n'), why: 'a $ref to nothing' },
    { bytes: Buffer.alloc(0), why: 'an empty document' },
    { bytes: Buffer.from('null'), why: 'null' },
    { bytes: Buffer.from('[]'), why: 'a list' },
    { bytes: Buffer.from('"swagger: 2.0"'), why: 'a string' },
    { bytes: Buffer.from('swagger: !!js/function "function(){}"\n'), why: 'an unknown YAML tag' },
    { bytes: Buffer.from('swagger: !!binary "%%%"\n'), why: 'bad !!binary' },
    { bytes: Buffer.from('a: &a {x: 1}\nb:\n  <<: [*a, *a, *a]\n  <<: *a\n'), why: 'merge keys, not Swagger' },
    { bytes: Buffer.from('swagger: "2.0"\n---\nswagger: "2.0"\n'), why: 'two YAML documents' },
    { bytes: Buffer.from('{"swagger":"2.0","swagger":"2.0","__proto__":{"x":1}}'), why: 'duplicate and __proto__ keys' },
    { bytes: Buffer.from('\t\tswagger: "2.0"'), why: 'tabs for indentation' },
  ),
  fc.tuple(fc.integer({ min: 4, max: 12 }), fc.integer({ min: 4, max: 12 })).map(([levels, width]) => ({ bytes: Buffer.from(aliasBomb(levels, width)), why: `an alias bomb ${levels}x${width}` })),
  fc.integer({ min: 20, max: 30_000 }).map((n) => ({ bytes: Buffer.from(`a: ${'['.repeat(n)}${']'.repeat(n)}`), why: `YAML nested ${n} deep` })),
  fc.integer({ min: 20, max: 20_000 }).map((n) => ({ bytes: Buffer.from(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`), why: `JSON nested ${n} deep` })),
  fc.tuple(fc.nat(), notUtf8, fc.boolean()).map(([at, bytes, yaml]) => {
    const doc = yaml ? petstoreYaml : petstoreJson;
    const cut = at % doc.length;
    return { bytes: Buffer.concat([doc.subarray(0, cut), bytes, doc.subarray(cut)]), why: 'petstore with bytes that are not UTF-8' };
  }),
  fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => ({ bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(bytes)]), why: 'random bytes' })),
  fc.integer({ min: IMPORT_LIMIT + 1, max: IMPORT_LIMIT + 5_000 }).map((n) => ({ bytes: Buffer.from(`swagger: "2.0"\n${'#'.repeat(n)}`), why: 'over IMPORT_MAX_BYTES' })),
  fc.nat().map((cut) => ({ bytes: petstoreJson.subarray(0, 1 + (cut % (petstoreJson.length - 2))), why: 'truncated petstore JSON' })),
);
const goodSpec = fc.constantFrom(petstoreYaml, petstoreJson);

interface Part {
  readonly name?: string;
  readonly filename?: string;
  readonly type?: string;
  readonly data: Buffer;
}

function multipartBody(boundary: string, parts: readonly Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `Content-Disposition: form-data${part.name === undefined ? '' : `; name="${part.name}"`}${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    chunks.push(Buffer.from(`--${boundary}\r\n${disposition}\r\n${part.type === undefined ? '' : `Content-Type: ${part.type}\r\n`}\r\n`, 'latin1'), part.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const boundary = fc.stringMatching(/^[A-Za-z0-9'()+_,-]{1,40}$/);
const specPart = (data: Buffer, name = 'spec'): Part => ({ name, filename: 'swagger.yaml', type: 'application/yaml', data });
const bodyPart = (value: unknown, asField: boolean): Part => ({ name: 'body', ...(asField ? {} : { type: 'application/json' }), data: typeof value === 'string' ? Buffer.from(value, 'utf8') : json(value) });

/** Multipart bodies that must fail for import (`importBody`) or a spec update: every way of sending parts, JSON and the document wrong. */
function multipartEncodings(bodySpec: BodySpec, world: World): fc.Arbitrary<Encoded> {
  const encode = ([b, parts, why]: [string, Part[], string]): Encoded => ({ headers: { 'Content-Type': `multipart/form-data; boundary=${b}` }, body: multipartBody(b, parts), why });
  const maybeBody = fc.option(validBody(bodySpec).chain((v) => fc.boolean().map((asField) => bodyPart(v, asField))), { nil: undefined });
  const brokenBodyPart = fc.oneof(
    brokenBody(bodySpec).map((b): { value: unknown; why: string } => ({ value: b.value, why: `body part: ${b.why}` })),
    fc.constantFrom({ value: '{nickname: x', why: 'body part not JSON' }, { value: '[]', why: 'body part a list' }, { value: 'null', why: 'body part null' }, { value: '', why: 'body part empty' }),
    deep.map((value) => ({ value, why: 'body part deeply nested' })),
  );
  return fc.oneof(
    fc.tuple(boundary, badSpec, maybeBody, fc.constantFrom('spec', 'file')).map(([b, spec, body, name]) => encode([b, body ? [specPart(spec.bytes, name), body] : [specPart(spec.bytes, name)], spec.why])),
    fc.tuple(boundary, goodSpec, brokenBodyPart, fc.boolean()).map(([b, spec, body, asField]) => encode([b, [specPart(spec), bodyPart(body.value, asField)], body.why])),
    fc.tuple(boundary, goodSpec, maybeBody).chain(([b, spec, body]) =>
      fc
        .constantFrom<[Part[], string]>(
          [body ? [body] : [], 'no spec part'],
          [[specPart(spec), specPart(spec, 'file')], 'both spec and file'],
          [[specPart(spec), specPart(spec)], 'the spec part twice'],
          [[specPart(spec), { name: 'extra', data: Buffer.from('x') }], 'an unknown part'],
          [[specPart(spec), { name: '../../etc/passwd', filename: '../../etc/passwd', data: Buffer.from('x') }], 'a traversal part name'],
          [[specPart(spec), ...Array.from({ length: 9 }, (_, i) => ({ name: `p${i}`, data: Buffer.from('x') }))], 'more than 8 parts'],
          [[specPart(spec), bodyPart({}, true), bodyPart({}, false)], 'the body part twice'],
          [[{ data: spec }], 'a part without a name'],
        )
        .map(([parts, why]) => encode([b, parts, why])),
    ),
    fc
      .tuple(boundary, goodSpec)
      .chain(([b, spec]) =>
        fc.constantFrom<Encoded>(
          { headers: { 'Content-Type': 'multipart/form-data' }, body: multipartBody(b, [specPart(spec)]), why: 'multipart without a boundary' },
          { headers: { 'Content-Type': `multipart/form-data; boundary=${b}` }, body: Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="spec"\r\n\r\nswagger`), why: 'truncated multipart' },
          { headers: { 'Content-Type': `multipart/form-data; boundary=${b}x` }, body: multipartBody(b, [specPart(spec)]), why: 'the wrong boundary' },
          { headers: { 'Content-Type': `multipart/form-data; boundary=${b}` }, body: Buffer.from(`--${b}\r\nno headers here\r\n--${b}--\r\n`), why: 'a part without headers' },
          { headers: { 'Content-Type': `multipart/form-data; boundary=${b}` }, body: Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="spec"\r\n${'X-H: v\r\n'.repeat(40)}\r\nx\r\n--${b}--\r\n`), why: 'a part with 40 headers' },
          { headers: { 'Content-Type': `multipart/form-data; boundary=${b}` }, body: Buffer.alloc(0), why: 'an empty multipart body' },
          { headers: { 'Content-Type': `multipart/form-data; boundary=${b}`, 'Content-Encoding': 'gzip' }, body: gzipSync(multipartBody(b, [specPart(spec)])), why: 'a compressed multipart body' },
          { headers: { 'Content-Type': `multipart/form-data; boundary=${b}` }, body: multipartBody(b, [specPart(Buffer.alloc(IMPORT_LIMIT + 1, 0x23))]), why: 'a part over IMPORT_MAX_BYTES' },
          { headers: { 'Content-Type': `multipart/form-data; boundary="${b}"; boundary=other` }, body: Buffer.from('garbage'), why: 'garbage with two boundaries' },
        ),
      ),
    fc.tuple(boundary, goodSpec).map(([b, spec]) => {
      // To an import, the nickname of an API the account has (409); to a spec update, a field it does not take.
      const parts = [specPart(spec), bodyPart({ nickname: world.apiNickname }, true)];
      return encode([b, parts, 'a nickname the account already has']);
    }),
  );
}

// ---- Credentials -----------------------------------------------------------------------------

function badBearer(world: World): fc.Arbitrary<{ readonly headers: Record<string, string>; readonly why: string }> {
  return fc.oneof(
    fc.constant({ headers: {}, why: 'no Authorization' }),
    fc
      .oneof(
        fc.constantFrom('Bearer', 'Bearer ', `Token ${world.bearer}`, `${world.bearer}`, `Bearer ${world.bearer.slice(0, -1)}`, `Bearer ${world.bearer}x`, `Bearer ${world.bearer.toUpperCase()}`, `Bearer  ${world.bearer} extra`, world.basic, 'Basic ', `Bearer ${world.bearer}\u00ff`),
        fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((s) => `Bearer sbt_${s}`),
        fc.integer({ min: 1_000, max: 5_000 }).map((n) => `Bearer sbt_${'a'.repeat(n)}`),
        injection.map((s) => `Bearer ${encode(s)}`),
        headerValue.map((v) => `Bearer ${v}`),
      )
      .filter((value) => value !== `Bearer ${world.bearer}`)
      .map((value) => ({ headers: { Authorization: value }, why: `Authorization ${value.slice(0, 30)}` })),
  );
}

function badBasic(world: World, allowWrongPassword: boolean): fc.Arbitrary<{ readonly headers: Record<string, string>; readonly why: string }> {
  const cheap = fc.oneof(
    fc.constant<{ headers: Record<string, string>; why: string }>({ headers: {}, why: 'no Authorization' }),
    fc.constantFrom('Basic', 'Basic !!!', `Basic ${Buffer.from('no colon here').toString('base64')}`, `Bearer ${world.bearer}`, `Digest username="${world.emails.own}"`, `Basic ${'A'.repeat(5000)}`).map((value) => ({ headers: { Authorization: value }, why: `Authorization ${value.slice(0, 30)}` })),
  );
  if (!allowWrongPassword) return cheap;
  return fc.oneof(
    { weight: 4, arbitrary: cheap },
    {
      weight: 1,
      arbitrary: fc.constantFrom(basicOf(world.emails.own, 'wrong password'), basicOf(world.emails.own, ''), basicOf('nobody@example.com', PASSWORD), basicOf(`${world.emails.own}'--`, PASSWORD), basicOf(`${world.emails.own}\u0000`, PASSWORD)).map((value) => ({ headers: { Authorization: value }, why: 'wrong e-mail or password' })),
    },
  );
}

// ---- Query parameters ------------------------------------------------------------------------

/** `limit`/`cursor` that no list accepts: out of range, not integers, repeated, cursors this service never issued. */
const badPaging: fc.Arbitrary<{ readonly query: [string, string][]; readonly why: string }> = (() => {
  const limit = fc.constantFrom('0', '-1', '201', '1000', '9999', '99999999999999999999', '1.5', '1e2', '0x10', 'abc', '', '%205', '5%20', '%00', 'NaN', 'Infinity', '%D9%A1%D9%A2', '+5', '05%2C6');
  const cursorAfter = fc.constantFrom(null, -1, 1.5, 'not-a-uuid', {}, [], true, 'FFFFFFFF-FFFF-7FFF-BFFF-FFFFFFFFFFFF', { position: -1, id: 'x' }, { position: '1', id: '00000000-0000-7000-8000-000000000001' }, 'x'.repeat(3000));
  const cursor = fc.oneof(
    cursorAfter.map((after) => b64url({ after })),
    fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.concat([Buffer.from([0xff]), Buffer.from(bytes)]).toString('base64url')),
    fc.constantFrom('%', '%zz', '!!!', 'eyJhZnRlciI6', "'%20OR%201%3D1--"),
  );
  return fc.oneof(
    fc.tuple(limit, fc.option(cursor, { nil: undefined })).map(([l, c]) => ({ query: [['limit', l], ...(c === undefined ? [] : [['cursor', c] as [string, string]])] as [string, string][], why: `limit=${l.slice(0, 20)}` })),
    cursor.map((c) => ({ query: [['cursor', c]] as [string, string][], why: `cursor=${c.slice(0, 20)}` })),
    fc.constantFrom<{ query: [string, string][]; why: string }>({ query: [['limit', '5'], ['limit', '6']], why: 'limit twice' }, { query: [['limit[]', '5'], ['limit', '5'], ['limit', '5']], why: 'limit thrice' }, { query: [['cursor', ''], ['cursor', '']], why: 'cursor twice' }),
  );
})();

function badExportQuery(world: World): fc.Arbitrary<{ readonly query: [string, string][]; readonly why: string }> {
  const format = fc.constantFrom('xml', 'YAML', 'JSON', '', 'json%20', 'yaml%00', '..%2F..%2Fetc%2Fpasswd', 'yml', 'js');
  const release = fc.oneof(fc.constantFrom('9.9.9', '1.0.0%2F..', '..', '%2e%2e%2f', '1.0.0%00'), bogusSegment).filter((r) => r !== '' && safeDecode(r) !== world.version);
  return fc.oneof(
    format.map((f) => ({ query: [['format', f]] as [string, string][], why: `format=${f}` })),
    release.map((r) => ({ query: [['release', r]] as [string, string][], why: `release=${r.slice(0, 20)}` })),
    fc.constantFrom<{ query: [string, string][]; why: string }>({ query: [['format', 'yaml'], ['format', 'json']], why: 'format twice' }, { query: [['release', world.version], ['release', world.version]], why: 'release twice' }),
  );
}

// ---- Tokens for the identity endpoints -------------------------------------------------------

function bogusIdentityToken(world: World): fc.Arbitrary<string> {
  const jwt = fc
    .record({ alg: fc.constantFrom('none', 'HS256', 'RS256', 'ES256', 'RS512', ''), kid: fc.constantFrom(world.kid, 'nope', '../../etc/passwd', ''), exp: fc.integer({ min: 0, max: 2 ** 40 }), sig: fc.constantFrom('', 'AAAA', 'x'.repeat(342)) })
    .map(({ alg, kid, exp, sig }) => `${b64url({ alg, kid, typ: 'JWT' })}.${b64url({ iss: world.issuer, aud: world.client.id, azp: world.client.id, sub: String(world.ada.userId), email: world.emails.own, exp, iat: 0, scope: 'openid email' })}.${sig}`);
  return fc.oneof(jwt, fc.constant(world.bearer), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((s) => `sbt_${s}`), fc.stringMatching(/^[A-Za-z0-9._~-]{0,60}$/), fc.integer({ min: 1_000, max: 4_000 }).map((n) => `ey${'J'.repeat(n)}.e30.`), injection);
}

// ---- The corpus per route --------------------------------------------------------------------

interface Weighted {
  readonly weight: number;
  readonly arbitrary: fc.Arbitrary<Probe>;
}

interface RouteCase {
  readonly key: string;
  readonly runs: number;
  readonly probes: fc.Arbitrary<Probe>;
}

/** Routes answered outside the Bearer route table, with their methods. */
const OTHER_ROUTES: readonly (readonly [string, string])[] = [
  ['GET', '/user/tokens'],
  ['POST', '/user/tokens'],
  ['DELETE', '/user/tokens/:tokenId'],
  ['POST', '/user/email/verification'],
  ['GET', '/user/email/verify'],
  ['POST', '/user/email/verify'],
  ['POST', '/o/oauth2/token'],
  ['POST', '/o/oauth2/revoke'],
  ['GET', '/oauth2/v2/tokeninfo'],
  ['POST', '/oauth2/v2/tokeninfo'],
  ['GET', '/oauth2/v2/userinfo'],
  ['GET', '/userinfo/v2/me'],
  ['GET', '/oauth2/v3/userinfo'],
  ['GET', '/o/oauth2/auth'],
  ['POST', '/o/oauth2/auth'],
  ['GET', '/.well-known/openid-configuration'],
  ['GET', '/oauth2/v2/certs'],
  ['GET', '/oauth2/v1/certs'],
  ['GET', '/healthz'],
];

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function matches(template: string, path: string): boolean {
  const a = template.split('/');
  const b = path.split('?')[0]!.split('/');
  return a.length === b.length && a.every((segment, i) => (segment.startsWith(':') ? b[i] !== '' : segment === b[i]));
}

/** Methods some route serves on this concrete path: anything else is a 405 (or 404). */
function allowedOn(path: string, table: readonly (readonly [string, string])[]): Set<string> {
  return new Set(table.filter(([, template]) => matches(template, path)).map(([method]) => method));
}

const LIST_ROUTES = new Set([
  'GET /api/:accountId',
  'GET /api/:accountId/:apiId/releases',
  'GET /webhooks/:accountId',
  'GET /webhooks/:accountId/:webhookId/deliveries',
  'GET /api/:accountId/:apiId/pages',
  'GET /api/:accountId/:apiId/shares',
  'GET /api/:accountId/:apiId/endpoints',
  'GET /api/:accountId/:apiId/models',
  'GET /api/:accountId/:apiId/environments',
  'GET /api/:accountId/:apiId/auth-adapters',
  'GET /user/tokens',
]);

function realParams(world: World): Readonly<Record<string, string>> {
  return {
    accountId: String(world.ada.accountId),
    apiId: world.apiId,
    version: world.version,
    pageId: world.pageId,
    shareId: world.shareId,
    webhookId: world.webhookId,
    deliveryId: world.deliveryId,
    tokenId: world.tokenId,
  };
}

/** Real ids, with a non-empty subset of the params replaced by ids that name nothing. */
function pathWithBogusIds(template: string, world: World): fc.Arbitrary<{ readonly path: string; readonly why: string }> {
  const params = paramsOf(template);
  const real = realParams(world);
  return fc.subarray(params, { minLength: 1 }).chain((chosen) =>
    fc.tuple(...chosen.map((p) => bogusFor(p, real[p] ?? '', world))).map((values) => {
      const replaced: Record<string, string> = { ...real };
      chosen.forEach((p, i) => (replaced[p] = values[i]!));
      return { path: fill(template, replaced), why: `bogus ${chosen.map((p, i) => `${p}=${values[i]!.slice(0, 30)}`).join(', ')}` };
    }),
  );
}

function tableRouteCase(route: RouteDefinition, world: World, specs: Readonly<Record<string, BodySpec>>, table: readonly (readonly [string, string])[]): RouteCase {
  const key = `${route.method} ${route.path}`;
  const bearer = { Authorization: `Bearer ${world.bearer}` };
  const realPath = fill(route.path, realParams(world));
  const isImport = route.path === '/api/:accountId/import';
  const isSpec = route.path === '/api/:accountId/:apiId/spec';
  const hasJsonBody = (route.middleware ?? []).length > 0;
  const spec = specs[key];
  if (hasJsonBody && !spec) throw new Error(`no body spec for ${key}: add one to bodySpecs()`);
  const probe = (why: string, path: string, headers: Record<string, string>, encoded?: Partial<Encoded>, method: string = route.method): Probe => ({
    route: key,
    why,
    method,
    path,
    headers: { ...headers, ...(encoded?.headers ?? {}) },
    ...(encoded?.body === undefined ? {} : { body: encoded.body }),
    ...(encoded?.chunked ? { chunked: true } : {}),
    expect: 'problem',
  });
  const importBody = { nickname: optional(fc.constantFrom('fresh-import'), badNickname), type: optional(fc.constant('public'), fc.constantFrom('secret', 1)), createRelease: optional(fc.boolean(), wrongType(false, 'boolean')), releaseVersion: optional(fc.constant('2.0.0'), wrongType(false)) };
  const replaceBody = { release: optional(fc.constant('2.0.0'), fc.oneof(badVersion, fc.constant(world.version), wrongType(false))) };
  /** What a valid request body looks like: a refused credential or id must refuse it anyway. */
  const validEncoded: fc.Arbitrary<Partial<Encoded>> = hasJsonBody
    ? validBody(spec!).map((value) => ({ headers: { 'Content-Type': 'application/json' }, body: json(value) }))
    : isImport || isSpec
      ? fc.tuple(boundary, goodSpec).map(([b, doc]) => ({ headers: { 'Content-Type': `multipart/form-data; boundary=${b}` }, body: multipartBody(b, [specPart(doc)]) }))
      : fc.constant({});

  const w = (weight: number, arbitrary: fc.Arbitrary<Probe>): Weighted => ({ weight, arbitrary });
  const strategies: Weighted[] = [
    w(2, fc.tuple(badBearer(world), validEncoded).map(([auth, encoded]) => probe(auth.why, realPath, auth.headers, encoded))),
    w(
      1,
      fc
        .tuple(fc.constantFrom(...METHODS.filter((m) => !allowedOn(realPath, table).has(m))), fc.option(validEncoded, { nil: undefined }))
        .map(([method, encoded]) => probe(`method ${method}`, realPath, bearer, encoded, method)),
    ),
  ];
  if (paramsOf(route.path).length > 0) {
    strategies.push(w(3, fc.tuple(pathWithBogusIds(route.path, world), fc.oneof(validEncoded, hasJsonBody ? jsonEncodings(spec!) : fc.constant({}))).map(([p, encoded]) => probe(p.why, p.path, bearer, encoded))));
  }
  if (hasJsonBody) strategies.push(w(8, jsonEncodings(spec!).map((encoded) => probe(encoded.why, realPath, bearer, encoded))));
  if (LIST_ROUTES.has(key)) strategies.push(w(4, badPaging.map((q) => probe(q.why, withQuery(realPath, q.query), bearer))));
  if (key === 'GET /api/:accountId/:apiId/export') strategies.push(w(4, badExportQuery(world).map((q) => probe(q.why, withQuery(realPath, q.query), bearer))));
  if (key === 'PATCH /api/:accountId/:apiId') {
    strategies.push(w(1, fc.tuple(validEncoded, fc.constantFrom('"9999"', 'W/"1"', '"1", "2"', '1', '"0"', '"01"', '""', '"1', `"${'9'.repeat(17)}"`)).map(([encoded, tag]) => probe(`If-Match ${tag}`, realPath, { ...bearer, 'If-Match': tag }, encoded))));
  }
  if (isImport) {
    strategies.push(
      w(12, multipartEncodings(importBody, world).map((encoded) => probe(encoded.why, realPath, bearer, encoded))),
      // A release version is checked only when a release is asked for.
      w(
        2,
        fc
          .tuple(boundary, goodSpec, badVersion)
          .map(([b, doc, version]) => probe(`createRelease with releaseVersion ${version.slice(0, 20)}`, realPath, bearer, { headers: { 'Content-Type': `multipart/form-data; boundary=${b}` }, body: multipartBody(b, [specPart(doc), bodyPart({ nickname: 'fresh-import', createRelease: true, releaseVersion: version }, false)]) })),
      ),
      w(
        1,
        fc
          .tuple(goodSpec, fc.constantFrom('application/yaml', 'application/json', 'text/plain', 'multipart/mixed; boundary=x', 'application/x-www-form-urlencoded', ''))
          .map(([doc, type]) => probe(`import as ${type || 'no media type'}`, realPath, bearer, { headers: type ? { 'Content-Type': type } : {}, body: doc })),
      ),
    );
  }
  if (isSpec) {
    const rawType = fc.constantFrom('application/yaml', 'application/json', 'text/yaml', 'text/plain', 'application/octet-stream', '');
    strategies.push(
      w(6, multipartEncodings(replaceBody, world).map((encoded) => probe(encoded.why, realPath, bearer, encoded))),
      w(6, fc.tuple(badSpec, rawType, fc.boolean()).map(([doc, type, chunked]) => probe(`raw: ${doc.why}`, realPath, bearer, { headers: type ? { 'Content-Type': type } : {}, body: doc.bytes, chunked }))),
      w(
        2,
        fc
          .tuple(goodSpec, fc.oneof(badVersion.map(encode), fc.constant(world.version)))
          .map(([doc, release]) => probe(`release=${release.slice(0, 20)}`, withQuery(realPath, [['release', release]]), bearer, { headers: { 'Content-Type': 'application/yaml' }, body: doc })),
      ),
      w(1, goodSpec.map((doc) => probe('release twice', withQuery(realPath, [['release', '3.0.0'], ['release', '3.0.1']]), bearer, { headers: { 'Content-Type': 'application/yaml' }, body: doc }))),
      w(
        1,
        fc
          .tuple(goodSpec, boundary)
          .map(([doc, b]) => probe('release in the query and the body', withQuery(realPath, [['release', '3.0.0']]), bearer, { headers: { 'Content-Type': `multipart/form-data; boundary=${b}` }, body: multipartBody(b, [specPart(doc), bodyPart({ release: '3.0.1' }, true)]) })),
      ),
      w(1, fc.tuple(goodSpec, fc.constantFrom('"9999"', 'W/"1"', '"1", "2"', 'x')).map(([doc, tag]) => probe(`If-Match ${tag}`, realPath, { ...bearer, 'If-Match': tag }, { headers: { 'Content-Type': 'application/yaml' }, body: doc }))),
      w(1, fc.tuple(goodSpec, fc.constantFrom('gzip', 'br', 'x-bogus')).map(([doc, encoding]) => probe(`Content-Encoding ${encoding}`, realPath, bearer, { headers: { 'Content-Type': 'application/yaml', 'Content-Encoding': encoding }, body: encoding === 'gzip' ? gzipSync(doc) : doc }))),
    );
  }
  return { key, runs: isImport || isSpec ? RUNS_FOR_SPECS : RUNS_PER_ROUTE, probes: noisy(fc.oneof(...strategies)) };
}

function otherRouteCases(world: World, specs: Readonly<Record<string, BodySpec>>, table: readonly (readonly [string, string])[]): RouteCase[] {
  const basic = { Authorization: world.basic };
  const probe = (route: string, why: string, method: string, path: string, headers: Record<string, string>, expect: Expect, encoded?: Partial<Encoded>): Probe => ({
    route,
    why,
    method,
    path,
    headers: { ...headers, ...(encoded?.headers ?? {}) },
    ...(encoded?.body === undefined ? {} : { body: encoded.body }),
    ...(encoded?.chunked ? { chunked: true } : {}),
    expect,
  });
  const wrongMethod = (route: string, path: string): Weighted => ({
    weight: 1,
    arbitrary: fc.constantFrom(...METHODS.filter((m) => !allowedOn(path, table).has(m))).map((method) => probe(route, `method ${method}`, method, path, {}, 'problem', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: Buffer.from('a=b') })),
  });
  const cases: RouteCase[] = [];
  /** Each strategy weighs 3 against a wrong method's 1. */
  const add = (key: string, runs: number, ...strategies: (fc.Arbitrary<Probe> | Weighted)[]) =>
    cases.push({ key, runs, probes: noisy(fc.oneof(...strategies.map((s) => ('weight' in s ? s : { weight: 3, arbitrary: s })))) });

  // /user/tokens and e-mail verification: HTTP Basic.
  add(
    'GET /user/tokens',
    RUNS_WITH_PASSWORD,
    badPaging.map((q) => probe('GET /user/tokens', q.why, 'GET', withQuery('/user/tokens', q.query), basic, 'problem')),
    badBasic(world, true).map((a) => probe('GET /user/tokens', a.why, 'GET', '/user/tokens', a.headers, 'problem')),
    wrongMethod('GET /user/tokens', '/user/tokens'),
  );
  add(
    'POST /user/tokens',
    RUNS_WITH_PASSWORD,
    jsonEncodings(specs['POST /user/tokens']!).map((e) => probe('POST /user/tokens', e.why, 'POST', '/user/tokens', basic, 'problem', e)),
    fc.tuple(badBasic(world, true), validBody(specs['POST /user/tokens']!)).map(([a, body]) => probe('POST /user/tokens', a.why, 'POST', '/user/tokens', a.headers, 'problem', { headers: { 'Content-Type': 'application/json' }, body: json(body) })),
  );
  add(
    'DELETE /user/tokens/:tokenId',
    RUNS_WITH_PASSWORD,
    pathWithBogusIds('/user/tokens/:tokenId', world).map((p) => probe('DELETE /user/tokens/:tokenId', p.why, 'DELETE', p.path, basic, 'problem')),
    badBasic(world, true).map((a) => probe('DELETE /user/tokens/:tokenId', a.why, 'DELETE', `/user/tokens/${world.tokenId}`, a.headers, 'problem')),
    wrongMethod('DELETE /user/tokens/:tokenId', `/user/tokens/${world.tokenId}`),
  );
  add(
    'POST /user/email/verification',
    RUNS_WITH_PASSWORD,
    fc.constant(probe('POST /user/email/verification', 'already verified', 'POST', '/user/email/verification', basic, 'problem')),
    badBasic(world, true).map((a) => probe('POST /user/email/verification', a.why, 'POST', '/user/email/verification', a.headers, 'problem')),
    wrongMethod('POST /user/email/verification', '/user/email/verification'),
  );
  const tokenShape = /^sbv_[A-Za-z0-9_-]{43}$/;
  add(
    'GET /user/email/verify',
    RUNS_PER_ROUTE,
    fc
      .oneof(fc.constantFrom('', 'sbv_', `sbv_${'A'.repeat(42)}`, `sbv_${'A'.repeat(44)}`, `sbv_${'A'.repeat(42)}!`, `SBV_${'A'.repeat(43)}`), anyText)
      .filter((t) => !tokenShape.test(t))
      .map((t) => probe('GET /user/email/verify', 'a malformed token', 'GET', withQuery('/user/email/verify', [['token', encode(t.slice(0, 1_000)).slice(0, 3_000)]]), {}, 'status')),
    fc.constantFrom(
      probe('GET /user/email/verify', 'no token', 'GET', '/user/email/verify', {}, 'status'),
      probe('GET /user/email/verify', 'the token twice', 'GET', `/user/email/verify?token=sbv_${'A'.repeat(43)}&token=sbv_${'B'.repeat(43)}`, {}, 'status'),
      probe('GET /user/email/verify', 'a raw percent', 'GET', '/user/email/verify?token=%', {}, 'status'),
    ),
    wrongMethod('GET /user/email/verify', '/user/email/verify'),
  );
  add(
    'POST /user/email/verify',
    RUNS_PER_ROUTE,
    jsonEncodings(specs['POST /user/email/verify']!, true).map((e) => probe('POST /user/email/verify', e.why, 'POST', '/user/email/verify', {}, 'problem', e)),
    fc
      .tuple(fc.oneof(fc.constantFrom(`sbv_${'C'.repeat(43)}`, ''), anyText), fc.boolean())
      .map(([token, gzip]) => {
        const body = form([['token', token.slice(0, 3000)]]);
        return probe('POST /user/email/verify', `form token${gzip ? ', gzip' : ''}`, 'POST', '/user/email/verify', {}, 'status', { headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) }, body: gzip ? gzipSync(body) : body });
      }),
    fc.constantFrom(
      probe('POST /user/email/verify', 'an oversized form', 'POST', '/user/email/verify', {}, 'status', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: Buffer.from(`token=${'t'.repeat(5000)}`) }),
      probe('POST /user/email/verify', 'a form that is not UTF-8', 'POST', '/user/email/verify', {}, 'status', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: Buffer.from([0x74, 0x6f, 0x6b, 0x65, 0x6e, 0x3d, 0xff, 0xfe, 0xc3, 0x28]) }),
      probe('POST /user/email/verify', 'a corrupt gzip form', 'POST', '/user/email/verify', {}, 'status', { headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': 'gzip' }, body: Buffer.from('token=x') }),
    ),
  );

  // The token endpoint: every request lacks a working grant, or is malformed.
  const client = [['client_id', world.client.id], ['client_secret', world.client.secret]] as [string, string][];
  const bogusCode = fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{10,60}$/), injection, fc.constant(''));
  const tokenViolation: fc.Arbitrary<{ readonly pairs: [string, string][]; readonly headers: Record<string, string>; readonly why: string }> = fc.oneof(
    bogusCode.map((code) => ({ pairs: [...client, ['code', code], ['redirect_uri', REDIRECT]] as [string, string][], headers: {}, why: 'no grant_type' })),
    fc.constantFrom('password', 'client_credentials', 'implicit', 'urn:ietf:params:oauth:grant-type:jwt-bearer', '', 'AUTHORIZATION_CODE', "authorization_code' --").map((g) => ({ pairs: [...client, ['grant_type', g]] as [string, string][], headers: {}, why: `grant_type ${g}` })),
    fc
      .tuple(fc.constantFrom<[string, string][]>([['client_id', 'nobody.apps.specbase']], [['client_id', world.client.id], ['client_secret', 'wrong']], [['client_id', world.client.id]], [['client_id', world.publicClientId], ['client_secret', 'any']], [['client_secret', world.client.secret]], [['client_id', 'c'.repeat(2001)]], [['client_id', `${world.client.id}\u0000`], ['client_secret', world.client.secret]], []), bogusCode)
      .map(([creds, code]) => ({ pairs: [['grant_type', 'authorization_code'], ['code', code], ['redirect_uri', REDIRECT], ...creds] as [string, string][], headers: {}, why: 'client authentication fails' })),
    fc.tuple(bogusCode, fc.option(fc.oneof(fc.stringMatching(/^[A-Za-z0-9._~-]{43,128}$/), fc.constantFrom('short', '!'.repeat(50))), { nil: undefined }), fc.boolean()).map(([code, verifier, pub]) => ({
      pairs: [['grant_type', 'authorization_code'], ['code', code], ['redirect_uri', REDIRECT], ...(verifier === undefined ? [] : [['code_verifier', verifier] as [string, string]]), ...(pub ? [['client_id', world.publicClientId] as [string, string]] : client)] as [string, string][],
      headers: {},
      why: 'a code that was never issued',
    })),
    fc.tuple(fc.option(bogusCode, { nil: undefined }), fc.option(fc.constantFrom('openid', '', 'admin'), { nil: undefined })).map(([refresh, scope]) => ({
      pairs: [['grant_type', 'refresh_token'], ...client, ...(refresh === undefined ? [] : [['refresh_token', refresh] as [string, string]]), ...(scope === undefined ? [] : [['scope', scope] as [string, string]])] as [string, string][],
      headers: {},
      why: 'a refresh token that was never issued',
    })),
    fc.constantFrom('grant_type', 'code', 'client_id', 'redirect_uri').map((name) => ({ pairs: [['grant_type', 'authorization_code'], ['code', 'x'], ['redirect_uri', REDIRECT], ...client, [name, 'again']] as [string, string][], headers: {}, why: `${name} twice` })),
    fc.constant({ pairs: [['grant_type', 'authorization_code'], ['code', 'x'], ['client_secret', world.client.secret]] as [string, string][], headers: { Authorization: basicOf(world.client.id, world.client.secret) }, why: 'Basic and client_secret both' }),
    fc.constantFrom('Basic', 'Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`, basicOf(world.client.id, 'wrong'), basicOf('%zz', '%')).map((value) => ({ pairs: [['grant_type', 'authorization_code'], ['code', 'x']] as [string, string][], headers: { Authorization: value }, why: `client Basic ${value.slice(0, 20)}` })),
  );
  /** The same violations sent as a form, as JSON, as a type the endpoint does not read, and bodies it cannot read at all. */
  const identityBodies = (violations: fc.Arbitrary<{ readonly pairs: [string, string][]; readonly headers: Record<string, string>; readonly why: string }>): fc.Arbitrary<Encoded> =>
    fc.oneof(
      { weight: 3, arbitrary: violations.map((v) => ({ headers: { ...v.headers, 'Content-Type': 'application/x-www-form-urlencoded' }, body: form(v.pairs), why: v.why })) },
      {
        weight: 1,
        arbitrary: violations.map((v) => {
          const object: Record<string, string | string[]> = {};
          for (const [k, value] of v.pairs) {
            const existing = object[k];
            object[k] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
          }
          return { headers: { ...v.headers, 'Content-Type': 'application/json' }, body: json(object), why: `${v.why} (JSON)` };
        }),
      },
      {
        weight: 1,
        arbitrary: fc.oneof(
          fc.constantFrom('{', '{"grant_type":', '[', 'null', '\u00ff\u00fe').map((t) => ({ headers: { 'Content-Type': 'application/json' }, body: Buffer.from(t, 'latin1'), why: 'malformed JSON' })),
          fc.integer({ min: IDENTITY_FORM_LIMIT + 1, max: IDENTITY_FORM_LIMIT * 2 }).map((n) => ({ headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: Buffer.from(`grant_type=authorization_code&pad=${'p'.repeat(n)}`), why: 'a form over 16 KiB' })),
          fc.constantFrom('gzip', 'deflate', 'br').map((encoding) => ({ headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': encoding }, body: Buffer.from('grant_type=x'), why: `corrupt ${encoding}` })),
          fc.constant({ headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': 'gzip' }, body: gzipSync(Buffer.from(`grant_type=x&pad=${' '.repeat(2_000_000)}`)), why: 'a gzip bomb' }),
        ),
      },
    );
  add(
    'POST /o/oauth2/token',
    RUNS_PER_ROUTE * 2,
    identityBodies(tokenViolation).map((e) => probe('POST /o/oauth2/token', e.why, 'POST', '/o/oauth2/token', {}, 'oauth', e)),
    tokenViolation.chain((v) => fc.constantFrom('text/plain', 'multipart/form-data; boundary=x', '').map((type) => probe('POST /o/oauth2/token', `${v.why} as ${type || 'no media type'}`, 'POST', '/o/oauth2/token', v.headers, 'oauth', { headers: type ? { 'Content-Type': type } : {}, body: form(v.pairs) }))),
    wrongMethod('POST /o/oauth2/token', '/o/oauth2/token'),
  );
  const revokeViolation: fc.Arbitrary<{ readonly pairs: [string, string][]; readonly headers: Record<string, string>; readonly why: string }> = fc.oneof(
    fc.constantFrom<[string, string][]>(client, [], [['client_id', world.publicClientId]], [['token_type_hint', 'access_token']]).map((creds) => ({ pairs: creds, headers: {}, why: 'no token' })),
    fc.tuple(fc.constantFrom<[string, string][]>([['client_id', 'nobody.apps.specbase']], [['client_id', world.client.id], ['client_secret', 'wrong']], [['client_id', world.client.id]], [['client_id', world.publicClientId], ['client_secret', 'x']], [['client_id', '']]), bogusIdentityToken(world)).map(([creds, token]) => ({
      pairs: [...creds, ['token', token]] as [string, string][],
      headers: {},
      why: 'client authentication fails',
    })),
    bogusIdentityToken(world).map((token) => ({ pairs: [['token', token], ['client_secret', world.client.secret]] as [string, string][], headers: { Authorization: basicOf(world.client.id, world.client.secret) }, why: 'Basic and client_secret both' })),
  );
  add(
    'POST /o/oauth2/revoke',
    RUNS_PER_ROUTE,
    identityBodies(revokeViolation).map((e) => probe('POST /o/oauth2/revoke', e.why, 'POST', '/o/oauth2/revoke', {}, 'oauth', e)),
    wrongMethod('POST /o/oauth2/revoke', '/o/oauth2/revoke'),
  );
  const tokenParam = fc.tuple(fc.constantFrom('access_token', 'id_token'), bogusIdentityToken(world));
  add(
    'GET /oauth2/v2/tokeninfo',
    RUNS_PER_ROUTE,
    tokenParam.map(([name, token]) => probe('GET /oauth2/v2/tokeninfo', `bogus ${name}`, 'GET', withQuery('/oauth2/v2/tokeninfo', [[name, encode(token)]]), {}, 'oauth')),
    bogusIdentityToken(world).map((token) => probe('GET /oauth2/v2/tokeninfo', 'bogus Bearer', 'GET', '/oauth2/v2/tokeninfo', { Authorization: `Bearer ${encode(token) || 'x'}` }, 'oauth')),
    fc.constantFrom(
      probe('GET /oauth2/v2/tokeninfo', 'no token', 'GET', '/oauth2/v2/tokeninfo', {}, 'oauth'),
      probe('GET /oauth2/v2/tokeninfo', 'access_token twice', 'GET', '/oauth2/v2/tokeninfo?access_token=a&access_token=b', {}, 'oauth'),
      probe('GET /oauth2/v2/tokeninfo', 'a raw percent', 'GET', '/oauth2/v2/tokeninfo?access_token=%', {}, 'oauth'),
    ),
  );
  add(
    'POST /oauth2/v2/tokeninfo',
    RUNS_PER_ROUTE,
    identityBodies(tokenParam.map(([name, token]) => ({ pairs: [[name, token]] as [string, string][], headers: {}, why: `bogus ${name}` }))).map((e) => probe('POST /oauth2/v2/tokeninfo', e.why, 'POST', '/oauth2/v2/tokeninfo', {}, 'oauth', e)),
  );
  for (const path of ['/oauth2/v2/userinfo', '/userinfo/v2/me', '/oauth2/v3/userinfo']) {
    add(
      `GET ${path}`,
      RUNS_PER_ROUTE,
      bogusIdentityToken(world).map((token) => probe(`GET ${path}`, 'bogus Bearer', 'GET', path, { Authorization: `Bearer ${encode(token) || 'x'}` }, 'google')),
      bogusIdentityToken(world).map((token) => probe(`GET ${path}`, 'bogus access_token', 'GET', withQuery(path, [['access_token', encode(token)]]), {}, 'google')),
      fc.constant(probe(`GET ${path}`, 'no token', 'GET', path, {}, 'google')),
      wrongMethod(`GET ${path}`, path),
    );
  }

  // The authorization endpoint: requests the pages refuse (400), or forms without the CSRF cookie (403).
  const validAuthorization: [string, string][] = [['response_type', 'code'], ['client_id', world.client.id], ['redirect_uri', REDIRECT], ['scope', 'openid email'], ['state', 'st']];
  const extras = fc.array(fc.tuple(fc.constantFrom('prompt', 'nonce', 'code_challenge', 'code_challenge_method', 'access_type', 'login_hint', 'response_mode', 'scope', 'state', 'response_type'), anyText.map((s) => s.slice(0, 300))), { maxLength: 3 });
  const refusedAuthorization: fc.Arbitrary<{ readonly pairs: [string, string][]; readonly why: string }> = fc.tuple(
    fc.oneof(
      fc.constant({ drop: 'client_id', set: undefined as [string, string] | undefined, why: 'no client_id' }),
      fc.oneof(fc.constantFrom('nobody.apps.specbase', '', `${world.client.id} `, world.client.id.toUpperCase()), injection, hugeString.map((s) => s.slice(0, 3_000))).map((id) => ({ drop: 'client_id', set: ['client_id', id] as [string, string], why: 'an unknown client_id' })),
      fc.constant({ drop: 'redirect_uri', set: undefined, why: 'no redirect_uri' }),
      fc
        .oneof(fc.constantFrom(`${REDIRECT}/`, REDIRECT.toUpperCase(), `${REDIRECT}?a=1`, `${REDIRECT}#f`, REDIRECT.replace('127.0.0.1', 'localhost'), 'http://evil.example/callback', 'javascript:alert(1)', '', `${REDIRECT}%00`), injection)
        .map((uri) => ({ drop: 'redirect_uri', set: ['redirect_uri', uri] as [string, string], why: 'an unregistered redirect_uri' })),
    ),
    extras,
    fc.boolean(),
  ).map(([violation, extra, repeat]) => {
    const pairs = validAuthorization.filter(([k]) => k !== violation.drop).concat(violation.set ? [violation.set] : []);
    // Extras of the same name repeat a parameter, which is itself refused before anything else.
    return { pairs: [...pairs, ...(repeat ? extra : [])], why: violation.why };
  });
  const repeated = fc.constantFrom('response_type', 'client_id', 'redirect_uri', 'scope', 'state').map((name) => ({ pairs: [...validAuthorization, [name, validAuthorization.find(([k]) => k === name)![1]]] as [string, string][], why: `${name} twice` }));
  add(
    'GET /o/oauth2/auth',
    RUNS_PER_ROUTE,
    fc.oneof(refusedAuthorization, repeated).map((r) => probe('GET /o/oauth2/auth', r.why, 'GET', `/o/oauth2/auth?${new URLSearchParams(r.pairs).toString()}`, {}, 'status')),
    wrongMethod('GET /o/oauth2/auth', '/o/oauth2/auth'),
  );
  const formFields = fc.record({ step: fc.constantFrom('login', 'consent', 'other', ''), email: fc.constantFrom(world.emails.own, 'x'), password: fc.constantFrom(PASSWORD, 'wrong'), decision: fc.constantFrom('allow', 'deny', 'maybe') });
  const csrf = fc.stringMatching(/^[A-Za-z0-9_-]{43}$/);
  add(
    'POST /o/oauth2/auth',
    RUNS_PER_ROUTE,
    fc.tuple(fc.oneof(refusedAuthorization, repeated), formFields, fc.option(csrf, { nil: undefined })).map(([r, f, token]) =>
      probe('POST /o/oauth2/auth', `form request: ${r.why}`, 'POST', '/o/oauth2/auth', token === undefined ? {} : { Cookie: `sb_csrf=${token}` }, 'status', {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form([['request', new URLSearchParams(r.pairs).toString()], ...(token === undefined ? [] : [['csrf', token] as [string, string]]), ...Object.entries(f)]),
      }),
    ),
    fc.tuple(formFields, fc.option(csrf, { nil: undefined }), fc.option(csrf, { nil: undefined })).filter(([, cookie, field]) => cookie === undefined || cookie !== field).map(([f, cookie, field]) =>
      probe('POST /o/oauth2/auth', 'no matching CSRF cookie', 'POST', '/o/oauth2/auth', cookie === undefined ? {} : { Cookie: `sb_csrf=${cookie}` }, 'status', {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form([['request', new URLSearchParams(validAuthorization).toString()], ...(field === undefined ? [] : [['csrf', field] as [string, string]]), ...Object.entries(f)]),
      }),
    ),
    fc.constantFrom(
      probe('POST /o/oauth2/auth', 'a form over 16 KiB', 'POST', '/o/oauth2/auth', {}, 'status', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: Buffer.from(`request=${'r'.repeat(IDENTITY_FORM_LIMIT + 10)}`) }),
      probe('POST /o/oauth2/auth', 'JSON instead of a form', 'POST', '/o/oauth2/auth', {}, 'status', { headers: { 'Content-Type': 'application/json' }, body: json({ request: new URLSearchParams(validAuthorization).toString(), step: 'login' }) }),
      probe('POST /o/oauth2/auth', 'a form that is not UTF-8', 'POST', '/o/oauth2/auth', {}, 'status', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: Buffer.from([0x72, 0x65, 0x71, 0x75, 0x65, 0x73, 0x74, 0x3d, 0xff, 0xc3, 0x28]) }),
    ),
  );
  for (const path of ['/.well-known/openid-configuration', '/oauth2/v2/certs', '/oauth2/v1/certs', '/healthz']) add(`GET ${path}`, 4, wrongMethod(`GET ${path}`, path));

  // Paths that exist nowhere.
  add(
    'unknown paths',
    RUNS_PER_ROUTE,
    fc
      .tuple(fc.constantFrom('/api', `/api/${world.ada.accountId}/${world.apiId}`, '/webhooks', '/user', '/o/oauth2', '/oauth2/v2', '/.well-known', '/healthz', ''), fc.array(bogusSegment, { minLength: 5, maxLength: 8 }), fc.constantFrom(...METHODS))
      .map(([prefix, segments, method]) => probe('unknown paths', 'no such path', method, `${prefix}/${segments.join('/')}`, { Authorization: `Bearer ${world.bearer}` }, 'problem')),
    fc.constantFrom('/apis', '/api/', '/admin', '/%2e%2e/%2e%2e/etc/passwd', '/..%2F..%2Fetc%2Fpasswd', '/.env', '/.git/config', '/user/email', '/user/tokens/x/y', '/o/oauth2/token/x').map((path) => probe('unknown paths', 'no such path', 'GET', path, { Authorization: `Bearer ${world.bearer}` }, 'problem')),
  );
  return cases;
}

// ---- Sending and judging ---------------------------------------------------------------------

async function send(port: number, agent: Agent, probe: Probe): Promise<Answer> {
  try {
    return await sendOnce(port, agent, probe);
  } catch (error) {
    // A kept-alive socket the server closed as the request left: the server never read it.
    if ((error as { reusedSocket?: boolean }).reusedSocket === true && (error as { code?: string }).code === 'ECONNRESET') return sendOnce(port, agent, probe);
    throw error;
  }
}

function sendOnce(port: number, agent: Agent, probe: Probe): Promise<Answer> {
  const started = performance.now();
  return new Promise<Answer>((resolve, reject) => {
    let answered = false;
    const headers: Record<string, string> = { ...probe.headers };
    if (probe.body !== undefined && !probe.chunked) headers['Content-Length'] = String(probe.body.length);
    const req = httpRequest({ host: '127.0.0.1', port, method: probe.method, path: probe.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        answered = true;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - started });
      });
      res.on('error', reject);
    });
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.on('error', (error) => {
      if (!answered) reject(Object.assign(error, { reusedSocket: req.reusedSocket }));
    });
    if (probe.body !== undefined && probe.chunked) {
      req.write(probe.body);
      req.end();
    } else {
      req.end(probe.body);
    }
  });
}

/** node:http's headers as a fetch `Headers`, for the check against the description. */
function headersOf(answer: Answer): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  return headers;
}

/** Why the answer breaks the property, or undefined. */
function judge(probe: Probe, answer: Answer): string | undefined {
  if (answer.status < 400 || answer.status > 499) return `status ${answer.status}, not a 4xx`;
  if (probe.expect === 'status') return undefined;
  const type = answer.headers['content-type'] ?? '';
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return `the body is not JSON (${type})`;
  }
  const record = (body ?? {}) as Record<string, unknown>;
  switch (probe.expect) {
    case 'problem':
      if (type !== 'application/problem+json') return `Content-Type ${type}, not application/problem+json`;
      if (record['status'] !== answer.status || typeof record['code'] !== 'string' || record['type'] !== `urn:specbase:problem:${String(record['code'])}` || typeof record['detail'] !== 'string') return 'not a problem document';
      return undefined;
    case 'oauth':
      if (answer.status === 405 && type === 'application/problem+json') return undefined;
      if (!type.startsWith('application/json')) return `Content-Type ${type}, not application/json`;
      if (typeof record['error'] !== 'string' || (record['error_description'] !== undefined && typeof record['error_description'] !== 'string')) return 'not an OAuth error';
      if (answer.headers['cache-control'] !== 'no-store') return 'no Cache-Control: no-store';
      return undefined;
    case 'google': {
      if (answer.status === 405 && type === 'application/problem+json') return undefined;
      const error = record['error'] as Record<string, unknown> | undefined;
      if (!type.startsWith('application/json') || error?.['code'] !== answer.status || typeof error['message'] !== 'string') return 'not a Google error';
      return undefined;
    }
  }
}

function describeProbe(probe: Probe): string {
  const headers = Object.entries(probe.headers).map(([k, v]) => `${k}: ${v.length > 120 ? `${v.slice(0, 120)}... (${v.length} chars)` : v}`);
  const body = probe.body === undefined ? '(no body)' : probe.body.length > 300 ? `${JSON.stringify(probe.body.subarray(0, 300).toString('latin1'))}... (${probe.body.length} bytes)` : JSON.stringify(probe.body.toString('latin1'));
  const path = probe.path.length > 300 ? `${probe.path.slice(0, 300)}... (${probe.path.length} chars)` : probe.path;
  return `${probe.method} ${path}\n  ${headers.join('\n  ')}${probe.chunked ? '\n  (chunked)' : ''}\n  ${body}\n  [${probe.route}: ${probe.why}]`;
}

/**
 * What the database holds, read through the server's own DataSource: `dump()` every row of every
 * table, sorted, as JSON lines per table; `fingerprint()` a digest of the same, in one query on
 * PostgreSQL, where the check after each request would otherwise cost a round trip per table.
 */
class DatabaseContents {
  private constructor(
    private readonly db: TypeOrmDatabase,
    private readonly schema: string,
    private readonly tables: readonly string[],
  ) {}

  static async of(server: TestServer): Promise<DatabaseContents> {
    const db = server.running.container.get<TypeOrmDatabase>(TypeOrmDatabase);
    const schema = (db.dataSource.options as { schema?: string }).schema ?? 'public';
    const names = await db.read(async (m) =>
      db.dialect === 'sqlite'
        ? (await m.query<{ name: string }[]>(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)).map((r) => r.name)
        : (await m.query<{ name: string }[]>(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name`, [schema])).map((r) => r.name),
    );
    return new DatabaseContents(db, schema, names.filter((n) => !COUNTER_TABLES.has(n)));
  }

  private qualified(name: string): string {
    return this.db.dialect === 'sqlite' ? `"${name}"` : `"${this.schema}"."${name}"`;
  }

  dump(): Promise<Map<string, string[]>> {
    return this.db.read(async (m) => {
      const tables = new Map<string, string[]>();
      for (const name of this.tables) tables.set(name, (await m.query<unknown[]>(`SELECT * FROM ${this.qualified(name)}`)).map((row) => JSON.stringify(row)).sort());
      return tables;
    });
  }

  async fingerprint(): Promise<string> {
    if (this.db.dialect === 'sqlite') return digest(await this.dump());
    const perTable = this.tables.map((name) => `SELECT '${name}' AS n, md5(coalesce(string_agg(x::text, E'\\n' ORDER BY x::text), '')) AS h FROM ${this.qualified(name)} x`).join(' UNION ALL ');
    const [row] = await this.db.read((m) => m.query<{ digest: string }[]>(`SELECT md5(string_agg(n || ':' || h, ',' ORDER BY n)) AS digest FROM (${perTable}) t`));
    return row!.digest;
  }
}

const digest = (tables: Map<string, string[]>): string => createHash('sha256').update(JSON.stringify([...tables])).digest('hex');

function difference(before: Map<string, string[]>, after: Map<string, string[]>): string {
  const lines: string[] = [];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const was = new Set(before.get(name) ?? []);
    const is = new Set(after.get(name) ?? []);
    const gone = [...was].filter((r) => !is.has(r));
    const added = [...is].filter((r) => !was.has(r));
    for (const row of gone) lines.push(`${name} - ${row.slice(0, 300)}`);
    for (const row of added) lines.push(`${name} + ${row.slice(0, 300)}`);
  }
  return lines.join('\n');
}

/**
 * Requests the corpus found getting through or breaking the server, fixed with it: a JSON body in a
 * charset other than UTF-8 was parsed as UTF-8 and written; an unknown field named like a member of
 * Object.prototype passed the whitelist (written, or a 500 on PATCH /user); a body whose bytes do not
 * match its Content-Encoding was a 500; on PostgreSQL, an account id beyond 32 bits, and a release,
 * e-mail address or OAuth client id holding U+0000, were a 500.
 */
function REGRESSIONS(world: World): Probe[] {
  const account = `/api/${world.ada.accountId}`;
  const bearer = { Authorization: `Bearer ${world.bearer}` };
  const jsonProbe = (method: string, path: string, body: string, headers: Record<string, string> = {}): Probe => ({
    route: 'regression',
    why: body,
    method,
    path,
    headers: { ...bearer, 'Content-Type': 'application/json', ...headers },
    body: Buffer.from(body, 'utf8'),
    expect: 'problem',
  });
  return [
    jsonProbe('POST', account, '{"name":"Latin","nickname":"latin"}', { 'Content-Type': 'application/json; charset=latin1' }),
    jsonProbe('PATCH', '/user', '{"name":"Ada"}', { 'Content-Type': 'application/json; charset=utf-16' }),
    jsonProbe('POST', account, '{"name":"a","nickname":"proto","hasOwnProperty":1}'),
    jsonProbe('POST', `/webhooks/${world.ada.accountId}`, '{"targetUrl":"https://93.184.215.14/h","events":["api.created"],"isPrototypeOf":1}'),
    jsonProbe('POST', `${account}/${world.apiId}/pages`, '{"title":"t","slug":"s","body":"","propertyIsEnumerable":1}'),
    jsonProbe('PATCH', '/user', '{"__defineGetter__":"x","nickname":"adax"}'),
    jsonProbe('PATCH', '/user', '{"constructor":{"name":"x"}}'),
    jsonProbe('POST', account, 'not gzip', { 'Content-Encoding': 'gzip' }),
    jsonProbe('POST', account, '{}', { 'Content-Encoding': 'br' }),
    jsonProbe('PUT', '/user/password', 'xx', { 'Content-Encoding': 'deflate' }),
    { route: 'regression', why: 'an account id beyond 32 bits (PostgreSQL)', method: 'GET', path: '/api/2147483648', headers: bearer, expect: 'problem' },
    { route: 'regression', why: 'an account id beyond 32 bits (PostgreSQL)', method: 'DELETE', path: `/api/4294967296/${world.apiId}/releases/${world.version}`, headers: bearer, expect: 'problem' },
    { route: 'regression', why: 'U+0000 in a release (PostgreSQL)', method: 'GET', path: `${account}/${world.apiId}/export?release=1.0.0%00`, headers: bearer, expect: 'problem' },
    { route: 'regression', why: 'U+0000 in a client id (PostgreSQL)', method: 'GET', path: `/o/oauth2/auth?response_type=code&client_id=a%00b&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=openid`, headers: {}, expect: 'status' },
    { route: 'regression', why: 'U+0000 in a client id (PostgreSQL)', method: 'POST', path: '/o/oauth2/token', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: Buffer.from('grant_type=authorization_code&code=x&client_id=a%00b'), expect: 'oauth' },
    { route: 'regression', why: 'U+0000 in a Basic e-mail (PostgreSQL)', method: 'GET', path: '/user/tokens', headers: { Authorization: basicOf('ada@example.com\u0000', PASSWORD) }, expect: 'problem' },
    { route: 'regression', why: 'a corrupt gzip form', method: 'POST', path: '/user/email/verify', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': 'gzip' }, body: Buffer.from('token=x'), expect: 'problem' },
  ];
}

/**
 * Requests Node's HTTP parser refuses before the application sees them: it answers a bare
 * `400 Bad Request` with no body, not problem+json. The fix belongs where the server is created
 * (src/main/server.ts): a `clientError` handler that writes a problem+json 400 and closes.
 */
const PARSER_REFUSALS: readonly Buffer[] = [
  Buffer.concat([Buffer.from('GET /api/1/'), Buffer.from([0xff, 0xfe]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]),
  Buffer.from('POST /api/1 HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'),
  Buffer.from('POST /api/1 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'),
  Buffer.from('GET /api/1 HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'),
];

function sendRaw(port: number, raw: Buffer): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let data = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
}

// ---- The suite -------------------------------------------------------------------------------

/** The route table the router is built from (handlers are not called here). */
const TABLE = protectedRoutes({ jsonMaxBytes: JSON_LIMIT, importMaxBytes: IMPORT_LIMIT } as unknown as HttpDependencies);
const ALL_ROUTES: readonly (readonly [string, string])[] = [...TABLE.map((r) => [r.method, r.path] as const), ...OTHER_ROUTES];

forEachDatabase('bad-input corpus: every route refuses generated bad requests with a 4xx and writes nothing', (target) => {
  let server: TestServer;
  let world: World;
  let agent: Agent;
  let contents: DatabaseContents;
  let baseline: Map<string, string[]>;
  let cases: RouteCase[];
  let sent = 0;
  let limited = 0;
  let slowest: { ms: number; probe: Probe } | undefined;

  before(async function () {
    this.timeout(60_000);
    // Rate limits stay on, but high: the requests must reach the validation they are about.
    const limits = { RATE_LIMIT_API: '1000000', RATE_LIMIT_PASSWORD_IP: '1000000', RATE_LIMIT_PASSWORD_EMAIL: '1000000', RATE_LIMIT_TOKEN_ENDPOINT: '1000000' };
    server = await startTestServerOn(target, { IMPORT_MAX_BYTES: String(IMPORT_LIMIT), JSON_MAX_BYTES: String(JSON_LIMIT), ...limits }, (c) => {
      // Time stands still, so that no answer records a token's use anew (api_tokens.last_use_date).
      c.rebind(Clock).toConstantValue(new FixedClock(new Date()));
    });
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
    world = await seed(server);
    cases = [...TABLE.map((route) => tableRouteCase(route, world, bodySpecs(world), ALL_ROUTES)), ...otherRouteCases(world, bodySpecs(world), ALL_ROUTES)];
    contents = await DatabaseContents.of(server);
    baseline = await contents.dump();
  });
  after(async () => {
    agent?.destroy();
    await server?.stop();
  });

  it('covers every route of the table and the routes outside it', () => {
    const keys = new Set(cases.map((c) => c.key));
    for (const [method, path] of ALL_ROUTES) expect(keys.has(`${method} ${path}`), `${method} ${path}`).to.equal(true);
  });

  it('answers each bad request with a 4xx in the route’s error shape, in time, writing nothing', async function () {
    this.timeout(180_000);
    const started = performance.now();
    const failures: string[] = [];
    let current = baseline;
    let currentFingerprint = await contents.fingerprint();
    for (const [index, routeCase] of cases.entries()) {
      const result = await fc.check(
        fc.asyncProperty(routeCase.probes, async (probe) => {
          sent += 1;
          let answer: Answer;
          try {
            answer = await send(server.running.port, agent, probe);
          } catch (error) {
            throw new Error(`${(error as Error).message}\n${describeProbe(probe)}`, { cause: error });
          }
          if (!slowest || answer.ms > slowest.ms) slowest = { ms: answer.ms, probe };
          if (answer.status === 429) limited += 1;
          const problems: string[] = [];
          const wrong = judge(probe, answer);
          if (wrong) problems.push(`${wrong}: ${answer.status} ${answer.headers['content-type'] ?? ''} ${answer.body.subarray(0, 400).toString('utf8')}`);
          try {
            await server.checkAnswer(probe.method, probe.path, { status: answer.status, headers: headersOf(answer), body: probe.method === 'HEAD' ? '' : answer.body.toString('utf8') });
          } catch (error) {
            problems.push((error as Error).message);
          }
          // After every request, so that a write is pinned on the request that made it.
          const fingerprint = await contents.fingerprint();
          if (fingerprint !== currentFingerprint) {
            const tables = await contents.dump();
            problems.push(`the database changed:\n${difference(current, tables)}`);
            [current, currentFingerprint] = [tables, fingerprint];
          }
          if (problems.length > 0) throw new Error(`${problems.join('\n')}\n${describeProbe(probe)}`);
        }),
        { seed: SEED + index, numRuns: routeCase.runs, endOnFailure: true, includeErrorInReport: true },
      );
      if (result.failed) failures.push(`${routeCase.key}: ${fc.defaultReportMessage(result) ?? ''}`);
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `      seed ${SEED}: ${sent} requests over ${cases.length} routes in ${seconds} s; slowest ${Math.round(slowest?.ms ?? 0)} ms (${slowest ? `${slowest.probe.route}: ${slowest.probe.why}` : ''})` +
        // A rate limiter answering 429 keeps requests from the validation the corpus is about.
        (limited > 0 ? `; ${limited} answered 429 by a rate limiter: raise the limits this server starts with` : ''),
    );
    expect(failures, failures.join('\n\n')).to.deep.equal([]);
    expect(sent).to.be.at.least(500);
  });

  it('refuses the requests that once got through or broke it (found by this corpus, kept whatever the seed)', async () => {
    for (const probe of REGRESSIONS(world)) {
      const answer = await send(server.running.port, agent, probe);
      expect(judge(probe, answer), `${answer.status} ${answer.body.toString('utf8')}\n${describeProbe(probe)}`).to.equal(undefined);
      await server.checkAnswer(probe.method, probe.path, { status: answer.status, headers: headersOf(answer), body: answer.body.toString('utf8') });
    }
    const now = await contents.dump();
    expect(digest(now), difference(baseline, now)).to.equal(digest(baseline));
  });

  it("answers requests Node's HTTP parser refuses with a problem+json 400 (malformed_request)", async () => {
    for (const raw of PARSER_REFUSALS) {
      const answer = await sendRaw(server.running.port, raw);
      expect(answer, JSON.stringify(raw.toString('latin1'))).to.match(/^HTTP\/1\.1 400 /);
      expect(answer.toLowerCase(), JSON.stringify(raw.toString('latin1'))).to.include('content-type: application/problem+json');
      expect(answer, JSON.stringify(raw.toString('latin1'))).to.include('"code":"malformed_request"');
    }
  });

  it('stays healthy, and the database is exactly what it was before the corpus', async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).to.equal(200);
    const now = await contents.dump();
    expect(digest(now), difference(baseline, now)).to.equal(digest(baseline));
  });
});

/** An API with a spec, a release, a page, a share and a webhook with a delivery; OAuth clients; every id the corpus puts in paths. */
async function seed(server: TestServer): Promise<World> {
  const ada = await server.user('ada@example.com', 'ada');
  const bob = await server.user('bob@example.com', 'bob');
  const carol = await server.user('carol@example.com', 'carol');
  const bearer = await server.token(ada, SCOPES);
  const bobBearer = await server.token(bob, SCOPES);
  const ok = async (response: Promise<Response>, status: number): Promise<Record<string, unknown>> => {
    const answer = await response;
    const text = await answer.text();
    if (answer.status !== status) throw new Error(`seed: ${answer.status} ${text}`);
    return (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
  };
  const account = `/api/${ada.accountId}`;
  const imported = await ok(
    server.multipart('POST', `${account}/import`, bearer, [
      { name: 'spec', value: petstoreYaml, filename: 'swagger.yaml', type: 'application/yaml' },
      { name: 'body', value: JSON.stringify({ nickname: 'petstore', createRelease: true, releaseVersion: '1.0.0' }), type: 'application/json' },
    ]),
    201,
  );
  const apiId = (imported['api'] as { id: string }).id;
  await ok(server.request('POST', account, { token: bearer, body: { name: 'Second', nickname: 'second' } }), 201);
  await ok(server.request('POST', `${account}/${apiId}/pages`, { token: bearer, body: { title: 'Second', slug: 'second-page', body: '' } }), 201);
  const otherApi = await ok(server.request('POST', `/api/${bob.accountId}`, { token: bobBearer, body: { name: 'Bob API', nickname: 'bobs' } }), 201);
  const page = await ok(server.request('POST', `${account}/${apiId}/pages`, { token: bearer, body: { title: 'Intro', slug: 'intro', body: '# Intro' } }), 201);
  const share = await ok(server.request('POST', `${account}/${apiId}/shares`, { token: bearer, body: { email: bob.email, role: 'viewer' } }), 201);
  const webhook = await ok(server.request('POST', `/webhooks/${ada.accountId}`, { token: bearer, body: { targetUrl: 'https://93.184.215.14/hook', events: ['api.created'] } }), 201);
  const delivery = await ok(server.request('POST', `/webhooks/${ada.accountId}/${String(webhook['id'])}/ping`, { token: bearer }), 202);
  const basic = basicOf(ada.email, PASSWORD);
  const tokens = await ok(fetch(`${server.url}/user/tokens`, { headers: { Authorization: basic } }), 200);
  const tokenId = (tokens['items'] as { id: string }[])[0]!.id;
  const register = async (name: string, isPublic: boolean) => {
    const result = await server.running.container.get(RegisterOAuthClient).execute({ name, redirectUris: [REDIRECT], public: isPublic });
    if (!result.ok) throw new Error('seed: client');
    return result.value;
  };
  const confidential = await register('Dashboard', false);
  const publicClient = await register('Mobile app', true);
  const certs = await ok(fetch(`${server.url}/oauth2/v2/certs`), 200);
  return {
    ada,
    bearer,
    basic,
    otherAccountId: bob.accountId,
    apiId,
    otherApiId: String(otherApi['id']),
    version: '1.0.0',
    pageId: String(page['id']),
    otherSlug: 'second-page',
    otherNickname: 'second',
    shareId: String(share['id']),
    webhookId: String(webhook['id']),
    deliveryId: String(delivery['id']),
    tokenId,
    apiNickname: 'petstore',
    emails: { own: ada.email, shared: bob.email, free: carol.email },
    client: { id: confidential.clientId, secret: confidential.clientSecret! },
    publicClientId: publicClient.clientId,
    kid: (certs['keys'] as { kid: string }[])[0]!.kid,
    issuer: server.url,
  };
}
