import type { Grant, GrantId } from '../../domain/identity/grant.js';
import { parseUuid } from '../../domain/shared/ids.js';
import type { User } from '../../domain/user/user.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { Clock } from '../ports/clock.port.js';
import type { GrantRepository, RefreshTokenRepository } from '../ports/identity-repositories.port.js';
import type { JwtClaims, JwtType, TokenSigner } from '../ports/token-signer.port.js';
import type { TokenGenerator } from '../ports/token-generator.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { UserRepository } from '../ports/user-repository.port.js';
import type { IdentitySettings } from './identity-settings.js';
import type { OAuthClient } from '../../domain/identity/oauth-client.js';
import type { SigningKeys } from './signing-keys.js';
import { claimsOf, userinfoOf } from './token-issuer.js';

/** A token this service signed, still valid: its claims, the live grant it belongs to, and its user. */
export interface ValidToken {
  readonly claims: JwtClaims;
  readonly grant: Grant;
  readonly user: User;
}

/** Checks signature, type, issuer, expiry, and that the grant is not revoked and the user exists. */
export class VerifyIssuedToken {
  constructor(
    private readonly signer: TokenSigner,
    private readonly keys: SigningKeys,
    private readonly grants: GrantRepository,
    private readonly users: UserRepository,
    private readonly settings: IdentitySettings,
    private readonly clock: Clock,
  ) {}

  async execute(token: string, typ: JwtType): Promise<ValidToken | undefined> {
    if (token.length > 8192) return undefined;
    const now = this.clock.now();
    const kid = this.signer.keyId(token);
    if (kid === undefined) return undefined;
    let keys = await this.keys.published();
    if (!keys.some((k) => k.kid === kid)) {
      // Perhaps a key another instance added since this one last read the list; one read, not one per bad token.
      await this.keys.refresh();
      keys = await this.keys.published();
      if (!keys.some((k) => k.kid === kid)) return undefined;
    }
    const claims = await this.signer.verify(token, typ, keys, this.settings.issuer, now);
    const grantId = typeof claims?.['gid'] === 'string' ? parseUuid<GrantId>(claims['gid']) : undefined;
    if (!claims || grantId === undefined) return undefined;
    const grant = await this.grants.get(grantId);
    if (!grant || grant.revocationDate !== null) return undefined;
    const user = await this.users.get(grant.userId);
    return user ? { claims, grant, user } : undefined;
  }
}

/** Google's Tokeninfo: which client a token was issued to, for whom, what it allows and for how long. */
export class TokenInfo {
  constructor(
    private readonly verify: VerifyIssuedToken,
    private readonly settings: IdentitySettings,
    private readonly clock: Clock,
  ) {}

  async execute(input: { readonly accessToken?: string | undefined; readonly idToken?: string | undefined }): Promise<Result<Record<string, unknown>, 'invalid_token'>> {
    const token = input.accessToken ?? input.idToken;
    if (token === undefined) return err('invalid_token');
    const valid = await this.verify.execute(token, input.accessToken !== undefined ? 'at+jwt' : 'JWT');
    if (!valid) return err('invalid_token');
    const { claims, grant, user } = valid;
    const scope = typeof claims['scope'] === 'string' ? claims['scope'] : grant.scope;
    const info: Record<string, unknown> = {
      issued_to: claims['azp'] ?? grant.clientId,
      audience: claims['aud'],
      user_id: String(grant.userId),
      scope,
      expires_in: Math.max(0, Number(claims['exp']) - Math.floor(this.clock.now().getTime() / 1000)),
    };
    const shown = userinfoOf(user, claimsOf(scope, this.settings.scopeBase));
    if (shown['email'] !== undefined) Object.assign(info, { email: shown['email'], verified_email: shown['verified_email'] });
    info['access_type'] = grant.offline ? 'offline' : 'online';
    return ok(info);
  }
}

/** Google's Userinfoplus for an access token: `id` always, e-mail and profile fields as its scope allows. */
export class UserInfo {
  constructor(
    private readonly verify: VerifyIssuedToken,
    private readonly settings: IdentitySettings,
  ) {}

  async execute(accessToken: string | undefined): Promise<Result<Record<string, unknown>, 'invalid_token'>> {
    if (!accessToken) return err('invalid_token');
    const valid = await this.verify.execute(accessToken, 'at+jwt');
    if (!valid) return err('invalid_token');
    const scope = typeof valid.claims['scope'] === 'string' ? valid.claims['scope'] : valid.grant.scope;
    return ok(userinfoOf(valid.user, claimsOf(scope, this.settings.scopeBase)));
  }
}

/**
 * RFC 7009: an access or refresh token revoked, and with it its grant (every token of that
 * authorization, as Google does). As at Google, holding a token is enough to revoke it: client
 * authentication is optional, but a client that authenticates can revoke only its own tokens (another
 * client's are left alone). An unknown or already revoked token is not an error.
 */
export class RevokeOAuthToken {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly refreshTokens: RefreshTokenRepository,
    private readonly verify: VerifyIssuedToken,
    private readonly generator: TokenGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(token: string, client: OAuthClient | undefined): Promise<void> {
    if (token.length === 0 || token.length > 8192) return;
    const refresh = await this.refreshTokens.get(this.generator.hash(token));
    const grant = refresh ? { id: refresh.grantId, clientId: refresh.clientId } : (await this.verify.execute(token, 'at+jwt'))?.grant;
    if (grant === undefined) return;
    if (client && grant.clientId !== client.id) return;
    const grantId = grant.id;
    const now = this.clock.now();
    await this.uow.run(async (tx) => ok(await tx.grants.revoke(grantId, now)));
  }
}
