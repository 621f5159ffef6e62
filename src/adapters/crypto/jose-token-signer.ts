import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, exportJWK, exportPKCS8, generateKeyPair, importJWK, importPKCS8, jwtVerify, SignJWT, type JWTHeaderParameters } from 'jose';
import type * as X509 from '@peculiar/x509';
import type { webcrypto } from 'node:crypto';
import type { StoredSigningKey } from '../../application/ports/identity-repositories.port.js';

type CryptoKey = webcrypto.CryptoKey;
import type { JwtClaims, JwtType, SigningKeyGenerator, TokenSigner } from '../../application/ports/token-signer.port.js';

const ALG = 'RS256';
/** Verified tokens remembered at most; the oldest is forgotten first. About 1.5 KB each. */
const VERIFIED_MAX = 10_000;

/** A token whose signature, `typ` and `iss` were checked: what a later check of the same string still has to look at. */
interface Verified {
  readonly typ: JwtType;
  readonly issuer: string;
  readonly kid: string;
  readonly claims: JwtClaims;
  readonly exp: number;
  readonly nbf: number | undefined;
}

/**
 * RS256 JWTs with jose. Keys are imported once per kid and kept as CryptoKeys: importing a PEM for
 * every signature or verification would cost more than the RSA operation itself.
 *
 * A token that verified is remembered (by its whole string), because resource servers present the
 * same access token again and again during its hour: the next check of that string skips the RSA
 * verification, which the string cannot change, and repeats only what time and rotation can: the
 * expiry, `nbf`, and that its key is still among `keys`. Only tokens that verified are remembered,
 * so made-up tokens cannot fill the memory; the callers still read the grant every time, so a
 * revocation is seen at once.
 */
export class JoseTokenSigner implements TokenSigner {
  private readonly privateKeys = new Map<string, Promise<CryptoKey>>();
  private readonly publicKeys = new Map<string, Promise<CryptoKey>>();
  private readonly verified = new Map<string, Verified>();

  async sign(claims: JwtClaims, typ: JwtType, key: StoredSigningKey): Promise<string> {
    let privateKey = this.privateKeys.get(key.kid);
    if (!privateKey) {
      privateKey = importPKCS8(key.privateKeyPem, ALG);
      this.privateKeys.set(key.kid, privateKey);
    }
    return new SignJWT({ ...claims }).setProtectedHeader({ alg: ALG, kid: key.kid, typ }).sign(await privateKey);
  }

  async verifyAnyAge(jwt: string, typ: JwtType, keys: readonly StoredSigningKey[], issuer: string): Promise<JwtClaims | undefined> {
    let issuedAt: unknown;
    try {
      issuedAt = decodeJwt(jwt).iat;
    } catch {
      return undefined;
    }
    // Checked as at the moment it was issued: signature, type and issuer hold whatever its age.
    return typeof issuedAt === 'number' && Number.isSafeInteger(issuedAt) ? this.verify(jwt, typ, keys, issuer, new Date(issuedAt * 1000)) : undefined;
  }

  async verify(jwt: string, typ: JwtType, keys: readonly StoredSigningKey[], issuer: string, now: Date): Promise<JwtClaims | undefined> {
    // jose's clock: whole seconds, valid while exp > now and nbf <= now (no tolerance).
    const seconds = Math.floor(now.getTime() / 1000);
    const known = this.verified.get(jwt);
    if (known !== undefined) {
      if (known.exp <= seconds) this.verified.delete(jwt);
      else if (known.typ === typ && known.issuer === issuer && (known.nbf === undefined || known.nbf <= seconds) && keys.some((k) => k.kid === known.kid)) {
        return known.claims;
      }
    }
    try {
      const { payload, protectedHeader } = await jwtVerify(jwt, (header: JWTHeaderParameters) => this.publicKey(header, keys), {
        algorithms: [ALG],
        issuer,
        typ,
        currentDate: now,
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      const { kid } = protectedHeader;
      if (kid !== undefined) this.remember(jwt, { typ, issuer, kid, claims: Object.freeze(payload), exp: Number(payload.exp), nbf: payload.nbf });
      return payload;
    } catch {
      return undefined;
    }
  }

  keyId(jwt: string): string | undefined {
    const known = this.verified.get(jwt);
    if (known !== undefined) return known.kid;
    try {
      const kid = decodeProtectedHeader(jwt).kid;
      return typeof kid === 'string' ? kid : undefined;
    } catch {
      return undefined;
    }
  }

  private remember(jwt: string, verified: Verified): void {
    if (this.verified.size >= VERIFIED_MAX) {
      const oldest = this.verified.keys().next();
      if (!oldest.done) this.verified.delete(oldest.value);
    }
    this.verified.set(jwt, verified);
  }

  private publicKey(header: JWTHeaderParameters, keys: readonly StoredSigningKey[]): Promise<CryptoKey> {
    const key = keys.find((k) => k.kid === header.kid);
    if (!key) throw new Error('unknown kid');
    let imported = this.publicKeys.get(key.kid);
    if (!imported) {
      imported = importJWK({ ...key.publicJwk, alg: ALG }, ALG) as Promise<CryptoKey>;
      this.publicKeys.set(key.kid, imported);
    }
    return imported;
  }
}

/**
 * @peculiar/x509, with the reflect-metadata its tsyringe needs, imported for the first key made
 * rather than with the module: importing it was 30 ms of every start (docs/performance.md, 7b),
 * and a server makes a key on its first start only, once it listens, and when one is rotated in.
 */
async function importX509(): Promise<typeof X509> {
  await import('reflect-metadata');
  return import('@peculiar/x509');
}

/**
 * RSA 2048 key pairs; the kid is the key's JWK thumbprint (RFC 7638). The certificate is
 * self-signed and only wraps the public key for clients that want PEM certificates (Google's Node
 * library fetches `/oauth2/v1/certs`); nobody should trust it as a CA.
 */
export class JoseSigningKeyGenerator implements SigningKeyGenerator {
  constructor(private readonly subject: string) {}

  async generate(now: Date, activationDate: Date): Promise<StoredSigningKey> {
    const pair = await generateKeyPair(ALG, { extractable: true, modulusLength: 2048 });
    const jwk = await exportJWK(pair.publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    const x509 = await importX509();
    x509.cryptoProvider.set(globalThis.crypto);
    const certificate = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: Buffer.from(kid, 'base64url').subarray(0, 16).toString('hex'),
      name: `CN=${this.subject.replace(/[,=+<>#;"\\]/g, ' ')}`,
      notBefore: now,
      notAfter: new Date(now.getTime() + 5 * 365 * 24 * 3600_000),
      signingAlgorithm: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      keys: pair,
    });
    return {
      kid,
      privateKeyPem: await exportPKCS8(pair.privateKey),
      publicJwk: { kty: String(jwk.kty), n: String(jwk.n), e: String(jwk.e) },
      certificatePem: certificate.toString('pem'),
      creationDate: now,
      activationDate,
    };
  }
}
