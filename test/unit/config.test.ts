import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/main/config.js';

describe('configuration', () => {
  it('defaults the scope base to PUBLIC_URL and mail to the log; trusts no proxy', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://docs.example.com/' });
    expect(config.publicUrl).to.equal('https://docs.example.com');
    expect(config.identity.scopeBase).to.equal('https://docs.example.com');
    expect(config.mail).to.deep.equal({ kind: 'log' });
    expect(config.trustProxy).to.equal(false);
  });

  it('reads SCOPE_BASE, TRUST_PROXY, MAILER=file with MAIL_DIR', () => {
    const config = loadConfig({ SCOPE_BASE: 'https://www.googleapis.com/', TRUST_PROXY: 'true', MAILER: 'file', MAIL_DIR: '/var/spool/specbase' });
    expect(config.identity.scopeBase).to.equal('https://www.googleapis.com');
    expect(config.trustProxy).to.equal(true);
    expect(config.mail).to.deep.equal({ kind: 'file', dir: '/var/spool/specbase' });
  });

  for (const [name, value] of [
    ['SCOPE_BASE', 'not a url'],
    ['TRUST_PROXY', 'yes please'],
    ['MAILER', 'smtp'],
    ['PUBLIC_URL', 'docs.example.com'],
  ] as const) {
    it(`refuses a malformed ${name}, naming it`, () => {
      expect(() => loadConfig({ [name]: value })).to.throw(ConfigError, name);
    });
  }
});
