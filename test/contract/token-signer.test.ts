import { expect } from 'chai';
import { JoseSigningKeyGenerator, JoseTokenSigner } from '../../src/adapters/crypto/jose-token-signer.js';
import type { StoredSigningKey } from '../../src/application/ports/identity-repositories.port.js';
import type { JwtClaims } from '../../src/application/ports/token-signer.port.js';

const ISSUER = 'http://localhost:8080';
const NOW = new Date('2026-11-22T10:15:00.000Z');
const IAT = Math.floor(NOW.getTime() / 1000);
const at = (seconds: number): Date => new Date((IAT + seconds) * 1000);

/** The same key, counting how often the signer reads its key material (each read is an import). */
function counted(key: StoredSigningKey): { key: StoredSigningKey; reads: { private: number; public: number } } {
  const reads = { private: 0, public: 0 };
  const copy = { ...key };
  Object.defineProperty(copy, 'privateKeyPem', { get: () => (reads.private++, key.privateKeyPem) });
  Object.defineProperty(copy, 'publicJwk', { get: () => (reads.public++, key.publicJwk) });
  return { key: copy, reads };
}

describe('TokenSigner: JoseTokenSigner', () => {
  let key: StoredSigningKey;
  let other: StoredSigningKey;
  const claims: JwtClaims = { iss: ISSUER, sub: '7', aud: 'client', gid: 'g1', iat: IAT, exp: IAT + 3600 };

  before(async () => {
    const generator = new JoseSigningKeyGenerator('localhost');
    key = await generator.generate(NOW, NOW);
    other = await generator.generate(NOW, NOW);
  });

  it('imports each key once, however many tokens it signs and verifies', async () => {
    const signer = new JoseTokenSigner();
    const { key: watched, reads } = counted(key);
    const tokens = [];
    for (let i = 0; i < 3; i++) tokens.push(await signer.sign({ ...claims, jti: String(i) }, 'at+jwt', watched));
    for (const token of [...tokens, ...tokens]) expect(await signer.verify(token, 'at+jwt', [watched], ISSUER, NOW)).to.include({ sub: '7', gid: 'g1' });
    expect(reads).to.deep.equal({ private: 1, public: 1 });
  });

  it('answers the same for a token it verified before: the claims, until exp (exclusive)', async () => {
    const signer = new JoseTokenSigner();
    const token = await signer.sign(claims, 'at+jwt', key);
    for (const seconds of [0, 1, 3599]) expect(await signer.verify(token, 'at+jwt', [key], ISSUER, at(seconds)), `at +${seconds} s`).to.deep.include(claims);
    expect(await signer.verify(token, 'at+jwt', [key], ISSUER, at(3600))).to.equal(undefined);
    expect(await signer.verify(token, 'at+jwt', [key], ISSUER, at(0)), 'an expired token is forgotten, not answered from memory').to.deep.include(claims);
    expect(signer.keyId(token)).to.equal(key.kid);
  });

  it('refuses, also after verifying it once, a token of the other type, for another issuer, or whose key is no longer among the keys', async () => {
    const signer = new JoseTokenSigner();
    const access = await signer.sign(claims, 'at+jwt', key);
    const id = await signer.sign(claims, 'JWT', key);
    for (let pass = 1; pass <= 2; pass++) {
      expect(await signer.verify(access, 'at+jwt', [key, other], ISSUER, NOW), `pass ${pass}`).not.to.equal(undefined);
      expect(await signer.verify(id, 'JWT', [key], ISSUER, NOW), `pass ${pass}`).not.to.equal(undefined);
      expect(await signer.verify(access, 'JWT', [key], ISSUER, NOW), `pass ${pass}: an access token as an ID token`).to.equal(undefined);
      expect(await signer.verify(id, 'at+jwt', [key], ISSUER, NOW), `pass ${pass}: an ID token as an access token`).to.equal(undefined);
      expect(await signer.verify(access, 'at+jwt', [key], 'https://elsewhere.example', NOW), `pass ${pass}: another issuer`).to.equal(undefined);
      expect(await signer.verify(access, 'at+jwt', [other], ISSUER, NOW), `pass ${pass}: its key retired`).to.equal(undefined);
    }
  });

  it('refuses a token before its nbf, also one it verified at a later time', async () => {
    const signer = new JoseTokenSigner();
    const token = await signer.sign({ ...claims, nbf: IAT + 10 }, 'at+jwt', key);
    expect(await signer.verify(token, 'at+jwt', [key], ISSUER, at(9))).to.equal(undefined);
    expect(await signer.verify(token, 'at+jwt', [key], ISSUER, at(10))).not.to.equal(undefined);
    expect(await signer.verify(token, 'at+jwt', [key], ISSUER, at(9))).to.equal(undefined);
  });

  it('refuses a changed signature, payload or header, and another key claiming the kid', async () => {
    const signer = new JoseTokenSigner();
    const token = await signer.sign(claims, 'at+jwt', key);
    expect(await signer.verify(token, 'at+jwt', [key], ISSUER, NOW)).not.to.equal(undefined);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = signature.slice(0, 10) + (signature[10] === 'A' ? 'B' : 'A') + signature.slice(11);
    const otherPayload = Buffer.from(JSON.stringify({ ...claims, sub: '8' })).toString('base64url');
    for (const forged of [`${header}.${payload}.${flipped}`, `${header}.${otherPayload}.${signature}`, `${header}.${payload}.`, `${header}.${payload}`, 'not a jwt']) {
      expect(await signer.verify(forged, 'at+jwt', [key], ISSUER, NOW), forged.slice(-20)).to.equal(undefined);
    }
    const impostor = { ...other, kid: key.kid };
    expect(await new JoseTokenSigner().verify(token, 'at+jwt', [impostor], ISSUER, NOW), 'the kid names another public key').to.equal(undefined);
  });
});
