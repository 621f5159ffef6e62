import type { OAuthClient } from '../../domain/identity/oauth-client.js';
import type { GrantRepository, RefreshTokenRepository } from '../ports/identity-repositories.port.js';
import type { TokenGenerator } from '../ports/token-generator.port.js';
import type { IdentitySettings } from './identity-settings.js';
import type { VerifyIssuedToken } from './token-info.use-cases.js';

/** RFC 7662 2.2: `{ active: false }` alone, or the token's facts. */
export type Introspection =
  | { readonly active: false }
  | {
      readonly active: true;
      readonly scope: string;
      readonly client_id: string;
      readonly sub: string;
      /** Absent for a refresh token, which does not expire. */
      readonly exp?: number;
      readonly iat: number;
      readonly token_type: 'Bearer';
      /** Which kind of token it is (as Ory Hydra says it): `access_token` or `refresh_token`. */
      readonly token_use: 'access_token' | 'refresh_token';
      readonly iss: string;
      readonly aud: string;
    };

const INACTIVE: Introspection = { active: false };

/**
 * Token introspection (RFC 7662) for a confidential client, authenticated by the caller: whether an
 * access or refresh token is live, and its facts. A token issued to another client is inactive to
 * this one (RFC 7662 4: a resource server learns nothing of tokens meant for others), as is an
 * ID token, which is no credential. `token_type_hint` only orders the lookups.
 */
export class IntrospectToken {
  constructor(
    private readonly refreshTokens: RefreshTokenRepository,
    private readonly grants: GrantRepository,
    private readonly verify: VerifyIssuedToken,
    private readonly generator: TokenGenerator,
    private readonly settings: IdentitySettings,
  ) {}

  async execute(client: OAuthClient, token: string, hint?: string): Promise<Introspection> {
    if (token.length === 0 || token.length > 8192) return INACTIVE;
    const access = () => this.access(token);
    const refresh = () => this.refresh(token);
    for (const lookup of hint === 'refresh_token' ? [refresh, access] : [access, refresh]) {
      const found = await lookup();
      if (found) return found.client_id === client.id ? found : INACTIVE;
    }
    return INACTIVE;
  }

  private async access(token: string): Promise<Extract<Introspection, { active: true }> | undefined> {
    const valid = await this.verify.execute(token, 'at+jwt');
    if (!valid) return undefined;
    const { claims, grant } = valid;
    return {
      active: true,
      scope: typeof claims['scope'] === 'string' ? claims['scope'] : grant.scope,
      client_id: grant.clientId,
      sub: String(grant.userId),
      exp: Number(claims['exp']),
      iat: Number(claims['iat']),
      token_type: 'Bearer',
      token_use: 'access_token',
      iss: this.settings.issuer,
      aud: grant.clientId,
    };
  }

  private async refresh(token: string): Promise<Extract<Introspection, { active: true }> | undefined> {
    if (!token.startsWith('sbr_')) return undefined;
    const stored = await this.refreshTokens.get(this.generator.hash(token));
    if (!stored || stored.rotationDate !== null) return undefined;
    const grant = await this.grants.get(stored.grantId);
    if (!grant || grant.revocationDate !== null) return undefined;
    return {
      active: true,
      scope: stored.scope,
      client_id: stored.clientId,
      sub: String(stored.userId),
      iat: Math.floor(stored.creationDate.getTime() / 1000),
      token_type: 'Bearer',
      token_use: 'refresh_token',
      iss: this.settings.issuer,
      aud: stored.clientId,
    };
  }
}
