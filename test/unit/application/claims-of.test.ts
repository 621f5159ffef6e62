import { expect } from 'chai';
import { claimsOf } from '../../../src/application/identity/token-issuer.js';

const BASE = 'https://www.googleapis.com';

describe('claimsOf: what a granted scope lets userinfo, tokeninfo and the ID token show', () => {
  it('maps the short names and the Google scope URLs of the scope base to their claims, and ignores the rest', () => {
    expect([...claimsOf('openid email', BASE)]).to.deep.equal(['openid', 'email']);
    expect([...claimsOf(`${BASE}/auth/userinfo.profile ${BASE}/auth/userinfo.email unknown`, BASE)]).to.deep.equal(['profile', 'email']);
    expect([...claimsOf(`${BASE}/auth/plus.me`, BASE)]).to.deep.equal(['openid']);
    expect([...claimsOf('', BASE)]).to.deep.equal([]);
  });

  it('reads a scope URL by the scope base it is asked with, also after the same scope was asked with another', () => {
    const scope = `${BASE}/auth/userinfo.email`;
    expect([...claimsOf(scope, BASE)]).to.deep.equal(['email']);
    expect([...claimsOf(scope, 'https://id.example.com')]).to.deep.equal([]);
    expect([...claimsOf('https://id.example.com/auth/userinfo.email', 'https://id.example.com')]).to.deep.equal(['email']);
    expect([...claimsOf(scope, BASE)]).to.deep.equal(['email']);
  });

  it('gives the same set for the same scope, and right answers past the number of scopes it remembers', () => {
    expect(claimsOf('openid profile', BASE)).to.equal(claimsOf('openid profile', BASE));
    for (let i = 0; i < 600; i++) {
      const scope = i % 2 === 0 ? `email x${i}` : `profile x${i}`;
      expect([...claimsOf(scope, BASE)], scope).to.deep.equal([i % 2 === 0 ? 'email' : 'profile']);
    }
    expect([...claimsOf('openid profile', BASE)]).to.deep.equal(['openid', 'profile']);
  });
});
