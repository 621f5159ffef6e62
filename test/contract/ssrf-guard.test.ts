import { expect } from 'chai';
import type { LookupAddress } from 'node:dns';
import { guardedLookup, isForbiddenAddress, REFUSALS, SsrfGuard, TargetRefusedError, type Resolution } from '../../src/adapters/webhooks/ssrf-guard.js';

/** A resolver that never touches the network: names map to fixed answers; anything else is NXDOMAIN. */
function fakeDns(table: Record<string, string[]>) {
  const asked: string[] = [];
  const lookup = async (hostname: string) => {
    asked.push(hostname);
    const answer = table[hostname];
    if (answer === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answer;
  };
  return { lookup, asked };
}

const PUBLIC = '93.184.216.34';

describe('SsrfGuard', () => {
  describe('isForbiddenAddress', () => {
    const forbidden = [
      '127.0.0.1', '127.255.255.254', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1',
      '169.254.169.254', '169.254.0.1', '100.64.0.1', '100.100.100.200', '0.0.0.0', '0.1.2.3',
      '255.255.255.255', '224.0.0.1', '239.255.255.250', '198.18.0.1', '198.19.255.255', '192.0.0.192',
      '192.0.2.1', '198.51.100.7', '203.0.113.9', '240.0.0.1', '168.63.129.16',
      '::1', '::', 'fe80::1', 'fe80::1%eth0', 'febf::1', 'fc00::1', 'fd00:ec2::254', 'ff02::1', 'fec0::1',
      '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::ffff:0:127.0.0.1',
      '::127.0.0.1', '64:ff9b::127.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::1', '2002:7f00:1::1', '2002:a9fe:a9fe::',
      '2001:db8::1', '2001:2::1', '100::1', '4000::1', '5f00::1',
      '[::1]', 'not-an-ip', '', '1.2.3', '2130706433x',
    ];
    const allowed = [PUBLIC, '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '198.20.0.1', '2606:2800:220:1:248:1893:25c8:1946',
      '2a00:1450:4001:80b::200e', '::ffff:93.184.216.34', '64:ff9b::5db8:d822', '2002:5db8:d822::1'];

    for (const ip of forbidden) it(`forbids ${JSON.stringify(ip)}`, () => expect(isForbiddenAddress(ip)).to.equal(true));
    for (const ip of allowed) it(`allows ${ip}`, () => expect(isForbiddenAddress(ip)).to.equal(false));

    it('forbids a Teredo address whose client or server is private, allows one with public ends', () => {
      // 2001:0:<server>:<flags>:<port>:<client XOR ffff:ffff>
      expect(isForbiddenAddress('2001:0:7f00:1:0:0:a2b:d8cb')).to.equal(true); // server 127.0.0.1
      expect(isForbiddenAddress('2001:0:5db8:d822:0:0:f5ff:fffe')).to.equal(true); // client 10.0.0.1
      expect(isForbiddenAddress('2001:0:5db8:d822:0:0:f7f7:f7f7')).to.equal(false); // client 8.8.8.8
      expect(isForbiddenAddress('2001:0:5db8:d822:0:0:3fff:fdfe')).to.equal(true); // client 192.0.2.1: both halves of the client are inverted
    });

    it('reads an IPv6 address in brackets as the address, and a lone bracket as no address', () => {
      expect(isForbiddenAddress('[2606:2800:220:1:248:1893:25c8:1946]')).to.equal(false);
      expect(isForbiddenAddress('[2606:4700::1')).to.equal(true);
      expect(isForbiddenAddress('2606:4700::1]')).to.equal(true);
      expect(isForbiddenAddress('a2606:4700::1]')).to.equal(true);
      expect(isForbiddenAddress('[2606:4700::1a')).to.equal(true);
    });
  });

  describe('refusal() with private targets refused', () => {
    const { lookup, asked } = fakeDns({
      'hooks.example.com': [PUBLIC, '2606:2800:220:1:248:1893:25c8:1946'],
      'intranet.example.com': ['10.1.2.3'],
      'mixed.example.com': [PUBLIC, '127.0.0.1'],
      'metadata.example.com': ['169.254.169.254'],
      'mapped.example.com': ['::ffff:192.168.0.1'],
      'nothing.example.com': [],
    });
    const guard = new SsrfGuard({ allowPrivateTargets: false, lookup });
    beforeEach(() => asked.splice(0));

    const refusedLiterals = [
      'http://127.0.0.1/', 'http://127.0.0.1:8080/hook', 'http://[::1]/', 'http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/',
      'http://2130706433/', 'http://0x7f.1/', 'http://017700000001/', 'http://127.1/', 'http://[::ffff:127.0.0.1]/',
      'http://[fd00:ec2::254]/', 'http://100.100.100.200/', 'http://0.0.0.0/', 'http://0/', 'https://[fe80::1]/',
      'http://192.168.0.10/', 'http://172.20.0.1/', 'http://224.0.0.1/', 'http://255.255.255.255/', 'http://198.18.0.1/',
    ];
    for (const url of refusedLiterals) {
      it(`refuses ${url} without a lookup`, async () => {
        expect(await guard.refusal(url)).to.equal(REFUSALS.forbiddenHost);
        expect(asked).to.deep.equal([]);
      });
    }

    for (const url of ['http://localhost/', 'http://LOCALHOST:3000/', 'http://localhost./', 'http://api.localhost/', 'https://a.b.localhost/x']) {
      it(`refuses ${url} without a lookup`, async () => {
        expect(await guard.refusal(url)).to.equal(REFUSALS.forbiddenHost);
        expect(asked).to.deep.equal([]);
      });
    }

    it('refuses a name that resolves to a private, metadata or IPv4-mapped private address', async () => {
      expect(await guard.refusal('https://intranet.example.com/hook')).to.equal(REFUSALS.forbiddenResolution);
      expect(await guard.refusal('http://metadata.example.com/')).to.equal(REFUSALS.forbiddenResolution);
      expect(await guard.refusal('http://mapped.example.com/')).to.equal(REFUSALS.forbiddenResolution);
    });

    it('refuses a name when any one of its addresses is forbidden', async () => {
      expect(await guard.refusal('http://mixed.example.com/')).to.equal(REFUSALS.forbiddenResolution);
    });

    it('refuses a name that does not resolve or resolves to nothing', async () => {
      expect(await guard.refusal('https://missing.example.com/')).to.equal('the host does not resolve');
      expect(await guard.refusal('https://nothing.example.com/')).to.equal('the host does not resolve');
    });

    it('accepts a name whose every address is public (checked, never connected to)', async () => {
      expect(await guard.refusal('https://hooks.example.com/specbase?x=1')).to.equal(null);
      expect(asked).to.deep.equal(['hooks.example.com']);
    });

    it('check() leaves nothing to resolve for a bracketed IPv6 literal', () => {
      const v6 = guard.check('https://[2606:2800:220:1:248:1893:25c8:1946]:8443/in');
      expect([v6.refusal, v6.url?.hostname, v6.resolve]).to.deep.equal([null, '[2606:2800:220:1:248:1893:25c8:1946]', undefined]);
      expect(guard.check('https://[::1]/')).to.deep.equal({ refusal: REFUSALS.forbiddenHost });
    });

    it('resolve() answers IP literals, bracketed or not, without a lookup', async () => {
      expect(await guard.resolve(PUBLIC)).to.deep.equal({ ok: true, addresses: [PUBLIC] });
      expect(await guard.resolve('[2606:2800:220:1:248:1893:25c8:1946]')).to.deep.equal({ ok: true, addresses: ['2606:2800:220:1:248:1893:25c8:1946'] });
      expect(await guard.resolve('127.0.0.1')).to.deep.equal({ ok: false, refusal: REFUSALS.forbiddenHost, unresolved: false });
      expect(await guard.resolve('[::1]')).to.deep.equal({ ok: false, refusal: REFUSALS.forbiddenHost, unresolved: false });
      expect(asked).to.deep.equal([]);
    });

    it('resolve() looks up a name with a lone bracket as the name it is', async () => {
      expect(await guard.resolve('[2606:4700::1')).to.deep.equal({ ok: false, refusal: REFUSALS.doesNotResolve, unresolved: true });
      expect(await guard.resolve('2606:4700::1]')).to.deep.equal({ ok: false, refusal: REFUSALS.doesNotResolve, unresolved: true });
      expect(asked).to.deep.equal(['[2606:4700::1', '2606:4700::1]']);
    });

    it('resolve() tells a name that does not resolve (unresolved) from one refused for its addresses', async () => {
      expect(await guard.resolve('missing.example.com')).to.deep.equal({ ok: false, refusal: REFUSALS.doesNotResolve, unresolved: true });
      expect(await guard.resolve('nothing.example.com')).to.deep.equal({ ok: false, refusal: REFUSALS.doesNotResolve, unresolved: true });
      expect(await guard.resolve('mixed.example.com')).to.deep.equal({ ok: false, refusal: REFUSALS.forbiddenResolution, unresolved: false });
      expect(await guard.resolve('hooks.example.com')).to.deep.equal({ ok: true, addresses: [PUBLIC, '2606:2800:220:1:248:1893:25c8:1946'] });
    });

    it('resolve() refuses localhost whatever its case and trailing dots, and looks up names that merely end in it', async () => {
      for (const name of ['localhost', 'LOCALHOST..', 'api.localhost.']) {
        expect(await guard.resolve(name), name).to.deep.equal({ ok: false, refusal: REFUSALS.forbiddenHost, unresolved: false });
      }
      expect(asked).to.deep.equal([]);
      expect(await guard.resolve('notlocalhost')).to.deep.include({ refusal: REFUSALS.doesNotResolve });
      expect(asked).to.deep.equal(['notlocalhost']);
    });

    it('accepts public IP literals', async () => {
      expect(await guard.refusal(`http://${PUBLIC}/`)).to.equal(null);
      expect(await guard.refusal('https://[2606:2800:220:1:248:1893:25c8:1946]:8443/')).to.equal(null);
      expect(asked).to.deep.equal([]);
    });

    it('check() decides literals and refusals at once, leaving only a host name to resolve', () => {
      const literal = guard.check(`http://${PUBLIC}:8080/in`);
      expect(literal.refusal).to.equal(null);
      expect(literal.url?.href).to.equal(`http://${PUBLIC}:8080/in`);
      expect(literal.resolve).to.equal(undefined);
      expect(guard.check('http://127.0.0.1/')).to.deep.equal({ refusal: REFUSALS.forbiddenHost });
      expect(guard.check('ftp://hooks.example.com/')).to.deep.equal({ refusal: REFUSALS.scheme });
      const name = guard.check('https://hooks.example.com/in');
      expect([name.refusal, name.url?.hostname, name.resolve]).to.deep.equal([null, 'hooks.example.com', 'hooks.example.com']);
      expect(asked, 'check() never resolves').to.deep.equal([]);
    });

    for (const url of ['ftp://hooks.example.com/', 'file:///etc/passwd', 'gopher://hooks.example.com/', 'javascript:alert(1)', 'ws://hooks.example.com/']) {
      it(`refuses the scheme of ${url}`, async () => {
        expect(await guard.refusal(url)).to.equal('only http and https targets are allowed');
      });
    }

    for (const url of ['http://user:pass@hooks.example.com/', 'https://user@hooks.example.com/', 'http://:pass@hooks.example.com/']) {
      it(`refuses credentials in ${url}`, async () => {
        expect(await guard.refusal(url)).to.equal(REFUSALS.credentials);
        expect(asked).to.deep.equal([]);
      });
    }

    it('refuses a URL that does not parse or is longer than 2048 characters', async () => {
      expect(await guard.refusal('not a url')).to.equal(REFUSALS.invalidUrl);
      expect(await guard.refusal('http://')).to.equal(REFUSALS.invalidUrl);
      const base = 'https://hooks.example.com/';
      expect(await guard.refusal(base + 'a'.repeat(2048 - base.length))).to.equal(null);
      expect(await guard.refusal(base + 'a'.repeat(2049 - base.length))).to.equal(REFUSALS.tooLong);
    });
  });

  describe('refusal() with private targets allowed', () => {
    const { lookup, asked } = fakeDns({ 'intranet.example.com': ['10.1.2.3'] });
    const guard = new SsrfGuard({ allowPrivateTargets: true, lookup });

    it('allows loopback, private, link-local and localhost targets', async () => {
      for (const url of ['http://127.0.0.1:3000/', 'http://localhost/', 'http://[::1]/', 'http://10.0.0.1/', 'http://169.254.169.254/', 'http://intranet.example.com/']) {
        expect(await guard.refusal(url), url).to.equal(null);
        expect(guard.check(url).resolve, url).to.equal(undefined);
      }
      expect(asked).to.deep.equal([]);
    });

    it('still refuses other schemes and credentials', async () => {
      expect(await guard.refusal('ftp://127.0.0.1/')).to.equal('only http and https targets are allowed');
      expect(await guard.refusal('http://user:pass@127.0.0.1/')).to.equal(REFUSALS.credentials);
    });
  });

  describe('the system resolver', () => {
    it('answers every address of a name (localhost, from the hosts file: no network)', async () => {
      const resolution = await new SsrfGuard({ allowPrivateTargets: true }).resolve('localhost');
      expect(resolution.ok).to.equal(true);
      expect(resolution.ok && resolution.addresses).to.include('127.0.0.1');
    });
  });

  describe('guardedLookup', () => {
    const { lookup } = fakeDns({
      'hooks.example.com': [PUBLIC, '2606:2800:220:1:248:1893:25c8:1946'],
      'v6-first.example.com': ['2606:2800:220:1:248:1893:25c8:1946', PUBLIC],
      'intranet.example.com': ['10.1.2.3'],
    });
    const run = (guard: SsrfGuard, hostname: string, options: { all?: boolean; family?: number | 'IPv4' | 'IPv6' }) =>
      new Promise<{ err: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family: number | undefined }>((resolve) => {
        guardedLookup(guard)(hostname, options, (err, address, family) => resolve({ err, address, family }));
      });
    const strict = new SsrfGuard({ allowPrivateTargets: false, lookup });

    it('answers every vetted address with its family when options.all is set', async () => {
      const result = await run(strict, 'hooks.example.com', { all: true });
      expect(result.err).to.equal(null);
      expect(result.address).to.deep.equal([
        { address: PUBLIC, family: 4 },
        { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
      ]);
    });

    it('answers one address and its family otherwise, honouring options.family', async () => {
      expect(await run(strict, 'hooks.example.com', {})).to.deep.equal({ err: null, address: PUBLIC, family: 4 });
      expect(await run(strict, 'hooks.example.com', { family: 6 })).to.deep.equal({
        err: null, address: '2606:2800:220:1:248:1893:25c8:1946', family: 6,
      });
    });

    it('fails the lookup when an address is forbidden, or the name does not resolve', async () => {
      const refused = await run(strict, 'intranet.example.com', { all: true });
      expect(refused.err?.code).to.equal('ERR_WEBHOOK_TARGET_REFUSED');
      expect(refused.err?.message).to.equal(REFUSALS.forbiddenResolution);
      const local = await run(strict, 'localhost', {});
      expect(local.err?.code).to.equal('ERR_WEBHOOK_TARGET_REFUSED');
      const missing = await run(strict, 'missing.example.com', {});
      expect(missing.err?.code).to.equal('ENOTFOUND');
    });

    it('honours options.family given as a number or a name, with one address or all', async () => {
      const v6 = '2606:2800:220:1:248:1893:25c8:1946';
      expect(await run(strict, 'hooks.example.com', { family: 4 })).to.deep.equal({ err: null, address: PUBLIC, family: 4 });
      expect(await run(strict, 'hooks.example.com', { family: 'IPv4' })).to.deep.equal({ err: null, address: PUBLIC, family: 4 });
      expect(await run(strict, 'hooks.example.com', { family: 'IPv6' })).to.deep.equal({ err: null, address: v6, family: 6 });
      expect(await run(strict, 'hooks.example.com', { family: 0 })).to.deep.equal({ err: null, address: PUBLIC, family: 4 });
      expect(await run(strict, 'v6-first.example.com', {})).to.deep.equal({ err: null, address: v6, family: 6 });
      expect(await run(strict, 'v6-first.example.com', { family: 4 })).to.deep.equal({ err: null, address: PUBLIC, family: 4 });
      expect(await run(strict, 'v6-first.example.com', { family: 'IPv4' })).to.deep.equal({ err: null, address: PUBLIC, family: 4 });
      expect((await run(strict, 'hooks.example.com', { all: true, family: 6 })).address).to.deep.equal([{ address: v6, family: 6 }]);
      expect((await run(strict, 'hooks.example.com', { all: true, family: 'IPv4' })).address).to.deep.equal([{ address: PUBLIC, family: 4 }]);
    });

    it('fails as unresolved when the name has no address of the family asked for', async () => {
      const open = new SsrfGuard({ allowPrivateTargets: true, lookup });
      for (const all of [false, true]) {
        const result = await run(open, 'intranet.example.com', { all, family: 6 });
        expect(result.err).to.be.instanceOf(TargetRefusedError);
        expect([result.err?.name, result.err?.code, result.err?.message]).to.deep.equal(['TargetRefusedError', 'ENOTFOUND', REFUSALS.doesNotResolve]);
        expect(result.address, 'no address beside the error').to.deep.equal(all ? [] : '');
      }
    });

    it('answers a refusal with the error alone: no address, an empty list when all are asked for', async () => {
      expect(await run(strict, 'intranet.example.com', {})).to.deep.include({ address: '' });
      expect(await run(strict, 'intranet.example.com', { all: true })).to.deep.include({ address: [] });
      const missing = await run(strict, 'missing.example.com', { all: true });
      expect([missing.err?.name, missing.err?.message, missing.address]).to.deep.equal(['TargetRefusedError', REFUSALS.doesNotResolve, []]);
    });

    it('hands the socket only addresses, never what a resolver answered that is not one', async () => {
      const junk = fakeDns({ 'odd.example.com': ['not-an-address', '10.1.2.3'] });
      const open = new SsrfGuard({ allowPrivateTargets: true, lookup: junk.lookup });
      expect(await run(open, 'odd.example.com', {})).to.deep.equal({ err: null, address: '10.1.2.3', family: 4 });
      expect((await run(open, 'odd.example.com', { all: true })).address).to.deep.equal([{ address: '10.1.2.3', family: 4 }]);
    });

    it('calls back with the error when resolving fails unexpectedly, so the connection fails instead of hanging', async () => {
      /** A guard whose resolution breaks (a resolver bug), by an Error or by anything else thrown. */
      class BrokenGuard extends SsrfGuard {
        constructor(private readonly thrown: unknown) {
          super({ allowPrivateTargets: false, lookup });
        }
        override async resolve(): Promise<Resolution> {
          throw this.thrown;
        }
      }
      const crash = new Error('resolver crashed');
      expect(await run(new BrokenGuard(crash), 'hooks.example.com', {})).to.deep.equal({ err: crash, address: '', family: undefined });
      const all = await run(new BrokenGuard(crash), 'hooks.example.com', { all: true });
      expect([all.err, all.address]).to.deep.equal([crash, []]);
      const odd = await run(new BrokenGuard('no answer'), 'hooks.example.com', {});
      expect(odd.err).to.be.instanceOf(Error);
      expect(odd.err?.message).to.equal('no answer');
      // A resolver that answers something other than a list of addresses breaks resolve() itself.
      const malformed = new SsrfGuard({ allowPrivateTargets: false, lookup: async () => undefined as unknown as string[] });
      const broken = await run(malformed, 'hooks.example.com', {});
      expect(broken.err).to.be.instanceOf(TypeError);
      expect(broken.address).to.equal('');
    });

    it('passes private addresses through when private targets are allowed', async () => {
      const open = new SsrfGuard({ allowPrivateTargets: true, lookup });
      expect(await run(open, 'intranet.example.com', {})).to.deep.equal({ err: null, address: '10.1.2.3', family: 4 });
    });
  });
});
