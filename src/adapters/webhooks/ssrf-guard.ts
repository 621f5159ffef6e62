import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { WebhookTargetPolicy } from '../../application/ports/webhook-sender.port.js';

export const MAX_TARGET_URL_LENGTH = 2048;

export const REFUSALS = {
  invalidUrl: 'the target URL is not a valid URL',
  tooLong: `the target URL is longer than ${MAX_TARGET_URL_LENGTH} characters`,
  scheme: 'only http and https targets are allowed',
  credentials: 'credentials in the target URL are not allowed',
  forbiddenHost: 'the host is a loopback, private, link-local, metadata or otherwise non-public address',
  forbiddenResolution: 'the host resolves to a loopback, private, link-local, metadata or otherwise non-public address',
  doesNotResolve: 'the host does not resolve',
} as const;

/** Resolves a host name to every address it has (IPv4 and IPv6). Rejects when it has none. */
export type HostLookup = (hostname: string) => Promise<string[]>;

export interface SsrfGuardOptions {
  /** Operator switch (WEBHOOK_ALLOW_PRIVATE_TARGETS): every address is allowed. */
  readonly allowPrivateTargets: boolean;
  readonly lookup?: HostLookup;
}

const systemLookup: HostLookup = async (hostname) => {
  const answers = await dnsLookup(hostname, {
    all: true,
    // Stryker disable next-line BooleanLiteral: false only puts IPv4 answers first; a test cannot choose the order getaddrinfo answers in (no DNS server of its own, a hosts file of one family)
    verbatim: true,
  });
  return answers.map((entry) => entry.address);
};

/** Public addresses that still reach provider-internal services from inside a cloud VM. */
const EXTRA_FORBIDDEN_V4: readonly string[] = [
  '168.63.129.16', // Azure WireServer / host agent
];

const V6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
const V6_NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

function v4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function forbiddenV4(address: ipaddr.IPv4): boolean {
  // range() folds 198.18/15 (benchmarking), 192.0.0/24 (incl. Oracle's 192.0.0.192) and 240/4 into
  // 'reserved', and 100.64/10 (incl. Alibaba's 100.100.100.200) into 'carrierGradeNat'.
  return address.range() !== 'unicast' || EXTRA_FORBIDDEN_V4.includes(address.toString());
}

function forbiddenV6(address: ipaddr.IPv6): boolean {
  const parts = address.parts;
  const word = (index: number) => parts[index] ?? 0;
  switch (address.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
      return forbiddenV4(address.toIPv4Address());
    case 'rfc6052':
      // 64:ff9b::/96 embeds the IPv4 address in the last 32 bits; 64:ff9b:1::/48 is local-use NAT64.
      return address.match(V6_NAT64_WELL_KNOWN) ? forbiddenV4(v4FromParts(word(6), word(7))) : true;
    case '6to4': // 2002:AABB:CCDD::/48
      return forbiddenV4(v4FromParts(word(1), word(2)));
    case 'teredo': // 2001:0:server:flags:port:~client
      return forbiddenV4(v4FromParts(word(2), word(3))) || forbiddenV4(v4FromParts(~word(6) & 0xffff, ~word(7) & 0xffff));
    case 'unicast':
      // ipaddr.js calls everything it has no name for 'unicast', including the IPv4-compatible ::/96
      // (::127.0.0.1) and the unallocated space; only 2000::/3 is global unicast.
      return !address.match(V6_GLOBAL_UNICAST);
    default:
      return true;
  }
}

/**
 * True when an address must not be a webhook target: anything but public unicast (loopback,
 * private, link-local and metadata, unique-local, CGNAT, multicast, broadcast, unspecified,
 * reserved, documentation, benchmarking), including IPv6 forms that embed such an IPv4 address
 * (IPv4-mapped, NAT64, 6to4, Teredo). Anything that is not an address in canonical text form
 * (what DNS answers and the URL parser produce) is forbidden.
 */
export function isForbiddenAddress(ip: string): boolean {
  const text = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  // Only canonical dotted-quad and IPv6 text: inet_aton forms ("127.1", "2130706433") fail closed.
  if (isIP(text) === 0) return true;
  try {
    const address = ipaddr.parse(text);
    return address.kind() === 'ipv4' ? forbiddenV4(address as ipaddr.IPv4) : forbiddenV6(address as ipaddr.IPv6);
  } catch {
    return true;
  }
}

function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** See `SsrfGuard.check`. */
export type TargetCheck =
  | { readonly refusal: string; readonly url?: undefined; readonly resolve?: undefined }
  | { readonly refusal: null; readonly url: URL; readonly resolve?: string };

export type Resolution =
  | { readonly ok: true; readonly addresses: readonly string[] }
  | { readonly ok: false; readonly refusal: string; readonly unresolved: boolean };

/**
 * The SSRF policy of webhook targets. `refusal` vets a URL ahead of time; `guardedLookup(guard)`
 * vets again at connect time and hands the socket only the addresses it vetted, so a DNS answer
 * that changes between the two (rebinding) cannot slip through.
 */
export class SsrfGuard implements WebhookTargetPolicy {
  readonly allowPrivateTargets: boolean;
  private readonly lookup: HostLookup;

  constructor(options: SsrfGuardOptions) {
    this.allowPrivateTargets = options.allowPrivateTargets;
    this.lookup = options.lookup ?? systemLookup;
  }

  async refusal(targetUrl: string): Promise<string | null> {
    const checked = this.check(targetUrl);
    if (checked.resolve === undefined) return checked.refusal;
    const resolution = await this.resolve(checked.resolve);
    return resolution.ok ? null : resolution.refusal;
  }

  /**
   * What `refusal` tells without DNS: a refusal, or the parsed URL allowed as it stands, or the
   * URL with the host name still to be resolved (`resolve`, then `refusal` on its addresses).
   */
  check(targetUrl: string): TargetCheck {
    if (targetUrl.length > MAX_TARGET_URL_LENGTH) return { refusal: REFUSALS.tooLong };
    let url: URL;
    try {
      url = new URL(targetUrl);
    } catch {
      return { refusal: REFUSALS.invalidUrl };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { refusal: REFUSALS.scheme };
    if (url.username !== '' || url.password !== '') return { refusal: REFUSALS.credentials };
    if (this.allowPrivateTargets) return { refusal: null, url };

    // The WHATWG parser has already turned 2130706433, 0x7f.1 and 127.1 into 127.0.0.1.
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    if (isIP(host) !== 0) return isForbiddenAddress(host) ? { refusal: REFUSALS.forbiddenHost } : { refusal: null, url };
    return { refusal: null, url, resolve: host };
  }

  /**
   * Every address of a host name, or why it may not be used. IP literals resolve to themselves;
   * with private targets allowed nothing is refused for its address. Never throws.
   */
  async resolve(hostname: string): Promise<Resolution> {
    const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
    const forbidden = (address: string) => !this.allowPrivateTargets && isForbiddenAddress(address);
    if (isIP(host) !== 0) {
      return forbidden(host) ? { ok: false, refusal: REFUSALS.forbiddenHost, unresolved: false } : { ok: true, addresses: [host] };
    }
    if (!this.allowPrivateTargets && isLocalhostName(host)) {
      return { ok: false, refusal: REFUSALS.forbiddenHost, unresolved: false };
    }
    let addresses: string[];
    try {
      addresses = await this.lookup(host);
    } catch {
      return { ok: false, refusal: REFUSALS.doesNotResolve, unresolved: true };
    }
    if (addresses.length === 0) return { ok: false, refusal: REFUSALS.doesNotResolve, unresolved: true };
    // One bad address refuses the host: which one a connection would use is not ours to choose.
    if (addresses.some(forbidden)) return { ok: false, refusal: REFUSALS.forbiddenResolution, unresolved: false };
    return { ok: true, addresses };
  }
}

/** The error a guarded lookup fails a connection with. */
export class TargetRefusedError extends Error {
  readonly code: string;
  constructor(message: string, unresolved: boolean) {
    super(message);
    this.name = 'TargetRefusedError';
    this.code = unresolved ? 'ENOTFOUND' : 'ERR_WEBHOOK_TARGET_REFUSED';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http/https `request` (and node:net `connect`): resolves through the guard
 * and fails the connection with a `TargetRefusedError` when any address is forbidden, so the socket
 * connects only to an address the guard has just vetted. Honours `options.all` and `options.family`.
 */
export function guardedLookup(guard: SsrfGuard) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const wanted = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    guard.resolve(hostname).then(
      (resolution) => {
        if (!resolution.ok) {
          callback(new TargetRefusedError(resolution.refusal, resolution.unresolved), options.all === true ? [] : '');
          return;
        }
        const entries = resolution.addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((entry) => entry.family !== 0 && (wanted === 0 || entry.family === wanted));
        const first = entries[0];
        if (first === undefined) {
          callback(new TargetRefusedError(REFUSALS.doesNotResolve, true), options.all === true ? [] : '');
        } else if (options.all === true) {
          callback(null, entries);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), options.all === true ? [] : ''),
    );
  };
}
