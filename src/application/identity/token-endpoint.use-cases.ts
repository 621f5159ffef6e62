import { checkCodeRedemption, checkRefresh, type Grant, type RefreshToken } from '../../domain/identity/grant.js';
import { checkDevicePoll, SLOW_DOWN_STEP_S } from '../../domain/identity/device-authorization.js';
import type { GrantType, OAuthClient } from '../../domain/identity/oauth-client.js';
import { isSubScope } from '../../domain/identity/oauth-scope.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { Clock } from '../ports/clock.port.js';
import type { OAuthClientRepository, StoredSigningKey } from '../ports/identity-repositories.port.js';
import type { TokenGenerator } from '../ports/token-generator.port.js';
import type { Transaction, UnitOfWork } from '../ports/unit-of-work.port.js';
import type { IdentitySettings } from './identity-settings.js';
import { oauthError, type OAuthError } from './oauth-error.js';
import { claimsOf, type TokenIssuer } from './token-issuer.js';

/** What the client presented to authenticate (RFC 6749 2.3.1): HTTP Basic, form fields, or only its id (public clients). */
export interface ClientCredentials {
  readonly clientId: string | undefined;
  readonly clientSecret: string | undefined;
  /** Whether they came as HTTP Basic: a failure then answers with a Basic challenge. */
  readonly basic: boolean;
}

/** RFC 6749 5.1 */
export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
  readonly scope: string;
  readonly refresh_token?: string;
  readonly id_token?: string;
}

/** The client of a token or revocation request: a confidential client must prove its secret, a public one must not have one to show. */
export class AuthenticateClient {
  constructor(
    private readonly clients: OAuthClientRepository,
    private readonly generator: TokenGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(credentials: ClientCredentials): Promise<Result<OAuthClient, OAuthError>> {
    const refused = oauthError('invalid_client', 'Client authentication failed.');
    if (!credentials.clientId || credentials.clientId.length > 2000) return err(refused);
    const client = await this.clients.get(credentials.clientId);
    if (!client) return err(refused);
    if (client.secretHash === null) return credentials.clientSecret === undefined ? ok(client) : err(refused);
    const presented = credentials.clientSecret;
    // The current secret, or the one before a rotation while its overlap lasts.
    if (presented === undefined || !client.secretHashesAt(this.clock.now()).some((hash) => this.generator.matches(presented, hash))) return err(refused);
    return ok(client);
  }
}

/** A registered client uses only the grant types it registered (RFC 7591 2). */
const unregistered = (grantType: GrantType): OAuthError => oauthError('unauthorized_client', `This application did not register the grant type ${grantType}.`);

type Outcome = { readonly issued: TokenResponse } | { readonly refused: OAuthError };

/**
 * The token endpoint's grants. Each runs in one transaction that commits even when it refuses, so a
 * replayed code or refresh token revokes its grant for good; and a code is consumed in the same
 * transaction that issues its tokens, so a consumed code always has its tokens.
 */
export class IssueTokens {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly issuer: TokenIssuer,
    private readonly generator: TokenGenerator,
    private readonly settings: IdentitySettings,
    private readonly clock: Clock,
  ) {}

  async authorizationCode(client: OAuthClient, params: { readonly code?: string | undefined; readonly redirectUri?: string | undefined; readonly codeVerifier?: string | undefined }): Promise<Result<TokenResponse, OAuthError>> {
    const invalid = (description: string): Outcome => ({ refused: oauthError('invalid_grant', description) });
    if (!client.allowsGrantType('authorization_code')) return err(unregistered('authorization_code'));
    if (!params.code || params.code.length > 200) return err(oauthError('invalid_request', 'code is required.'));
    const verifier = params.codeVerifier;
    if (verifier !== undefined && !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return err(oauthError('invalid_request', 'code_verifier must be 43-128 characters of A-Z, a-z, 0-9 and -._~ (RFC 7636 4.1).'));
    const codeHash = this.generator.hash(params.code);
    const now = this.clock.now();
    const key = await this.issuer.signingKey();
    return this.settle(async (tx): Promise<Outcome> => {
      const code = await tx.codes.get(codeHash);
      if (!code) return invalid('The code is unknown.');
      const checked = checkCodeRedemption(code, { clientId: client.id, redirectUri: params.redirectUri, verifierChallenge: verifier === undefined ? null : this.generator.s256(verifier) }, now);
      if (!checked.ok) {
        if (checked.error === 'AlreadyUsed') {
          await tx.grants.revoke(code.grantId, now);
          return invalid('The code was used before; the tokens issued for it are revoked.');
        }
        return invalid(
          {
            Expired: 'The code has expired.',
            WrongClient: 'The code was issued to another client.',
            WrongRedirectUri: 'redirect_uri differs from the one of the authorization request.',
            PkceMismatch: 'code_verifier does not match the code_challenge.',
          }[checked.error],
        );
      }
      if (!(await tx.codes.consume(codeHash, now))) {
        await tx.grants.revoke(code.grantId, now);
        return invalid('The code was used before; the tokens issued for it are revoked.');
      }
      const grant = await tx.grants.get(code.grantId);
      if (!grant || grant.revocationDate !== null) return invalid('The grant of this code is revoked.');
      let refreshToken: string | undefined;
      if (grant.offline) {
        const secret = this.generator.secret('sbr_');
        await tx.refreshTokens.add({ tokenHash: secret.hash, grantId: grant.id, clientId: grant.clientId, userId: grant.userId, scope: grant.scope, creationDate: now, rotationDate: null });
        refreshToken = secret.token;
      }
      return { issued: await this.response(tx, key, grant, grant.scope, { refreshToken, nonce: code.nonce, authTime: code.authTime }) };
    });
  }

  async refreshToken(client: OAuthClient, params: { readonly refreshToken?: string | undefined; readonly scope?: string | undefined }): Promise<Result<TokenResponse, OAuthError>> {
    const invalid = (description: string): Outcome => ({ refused: oauthError('invalid_grant', description) });
    if (!client.allowsGrantType('refresh_token')) return err(unregistered('refresh_token'));
    if (!params.refreshToken || params.refreshToken.length > 200) return err(oauthError('invalid_request', 'refresh_token is required.'));
    const tokenHash = this.generator.hash(params.refreshToken);
    const now = this.clock.now();
    const key = await this.issuer.signingKey();
    return this.settle(async (tx): Promise<Outcome> => {
      const stored = await tx.refreshTokens.get(tokenHash);
      if (!stored) return invalid('The refresh token is unknown.');
      const grant = await tx.grants.get(stored.grantId);
      if (!grant || grant.revocationDate !== null) return invalid('The refresh token is revoked.');
      const checked = checkRefresh(stored, client.id);
      if (!checked.ok) {
        if (checked.error === 'WrongClient') return invalid('The refresh token was issued to another client.');
        await tx.grants.revoke(grant.id, now);
        return invalid('The refresh token was used before (it was rotated); every token of its grant is revoked.');
      }
      const scope = params.scope === undefined ? grant.scope : [...new Set(params.scope.split(' ').filter((s) => s !== ''))].join(' ');
      if (scope === '' || !isSubScope(scope, grant.scope)) return { refused: oauthError('invalid_scope', 'A refresh can narrow the granted scope, never widen it.') };
      let rotated: string | undefined;
      if (client.isPublic) {
        if (!(await tx.refreshTokens.rotate(tokenHash, now))) {
          await tx.grants.revoke(grant.id, now);
          return invalid('The refresh token was used before (it was rotated); every token of its grant is revoked.');
        }
        const secret = this.generator.secret('sbr_');
        const next: RefreshToken = { ...stored, tokenHash: secret.hash, creationDate: now, rotationDate: null };
        await tx.refreshTokens.add(next);
        rotated = secret.token;
      }
      return { issued: await this.response(tx, key, { ...grant, scope }, scope, { refreshToken: rotated, nonce: null, authTime: null }) };
    });
  }

  /**
   * RFC 8628 3.4-3.5: a device polling with its device code. Until the user decides,
   * `authorization_pending` (or `slow_down`, polled faster than its interval, which then grows by
   * 5 s); then `access_denied`, or the tokens once (a refresh token with them: the device has no
   * browser to come back with); `expired_token` after 10 minutes. A device code polled by another
   * client is `invalid_grant`. Polls are recorded in the same transaction as their answer.
   */
  async deviceCode(client: OAuthClient, params: { readonly deviceCode?: string | undefined }): Promise<Result<TokenResponse, OAuthError>> {
    if (!client.allowsGrantType('urn:ietf:params:oauth:grant-type:device_code')) return err(unregistered('urn:ietf:params:oauth:grant-type:device_code'));
    if (!params.deviceCode || params.deviceCode.length > 200) return err(oauthError('invalid_request', 'device_code is required.'));
    const deviceCodeHash = this.generator.hash(params.deviceCode);
    const now = this.clock.now();
    const key = await this.issuer.signingKey();
    return this.settle(async (tx): Promise<Outcome> => {
      const refused = (error: OAuthError['error'], description: string): Outcome => ({ refused: oauthError(error, description) });
      const authorization = await tx.deviceAuthorizations.getByDeviceCode(deviceCodeHash);
      if (!authorization) return refused('invalid_grant', 'The device code is unknown.');
      const polled = checkDevicePoll(authorization, client.id, now);
      if (!polled.ok) {
        switch (polled.error) {
          case 'WrongClient':
            return refused('invalid_grant', 'The device code was issued to another client.');
          case 'Expired':
            return refused('expired_token', 'The device code has expired: start again.');
          case 'Used':
            return refused('invalid_grant', 'The device code was used before.');
          case 'Denied':
            return refused('access_denied', 'The user denied the request.');
          case 'SlowDown':
            await tx.deviceAuthorizations.recordPoll(deviceCodeHash, now, authorization.intervalS + SLOW_DOWN_STEP_S);
            return refused('slow_down', `Polled faster than every ${authorization.intervalS} s: wait ${authorization.intervalS + SLOW_DOWN_STEP_S} s between polls from now on.`);
          case 'Pending':
            await tx.deviceAuthorizations.recordPoll(deviceCodeHash, now, authorization.intervalS);
            return refused('authorization_pending', 'The user has not decided yet.');
        }
      }
      if (authorization.grantId === null || !(await tx.deviceAuthorizations.consume(deviceCodeHash))) return refused('invalid_grant', 'The device code was used before.');
      const grant = await tx.grants.get(authorization.grantId);
      if (!grant || grant.revocationDate !== null) return refused('invalid_grant', 'The grant of this device code is revoked.');
      const secret = this.generator.secret('sbr_');
      await tx.refreshTokens.add({ tokenHash: secret.hash, grantId: grant.id, clientId: grant.clientId, userId: grant.userId, scope: grant.scope, creationDate: now, rotationDate: null });
      return { issued: await this.response(tx, key, grant, grant.scope, { refreshToken: secret.token, nonce: null, authTime: null }) };
    });
  }

  private async response(
    tx: Transaction,
    key: StoredSigningKey,
    grant: Grant,
    scope: string,
    extra: { readonly refreshToken: string | undefined; readonly nonce: string | null; readonly authTime: Date | null },
  ): Promise<TokenResponse> {
    const access = await this.issuer.accessToken(grant, key);
    // The user's list of connected applications shows when each last got tokens.
    await tx.consents.touch(grant.userId, grant.clientId, this.clock.now());
    let idToken: string | undefined;
    if (claimsOf(scope, this.settings.scopeBase).has('openid')) {
      const user = await tx.users.get(grant.userId);
      if (user) idToken = await this.issuer.idToken(grant, user, extra, key);
    }
    return {
      access_token: access.token,
      token_type: 'Bearer',
      expires_in: access.expiresIn,
      scope,
      ...(extra.refreshToken === undefined ? {} : { refresh_token: extra.refreshToken }),
      ...(idToken === undefined ? {} : { id_token: idToken }),
    };
  }

  /** Runs `work` and commits what it did, tokens issued or refusal recorded alike. */
  private async settle(work: (tx: Transaction) => Promise<Outcome>): Promise<Result<TokenResponse, OAuthError>> {
    const outcome = await this.uow.run(async (tx) => ok(await work(tx)));
    if (!outcome.ok) throw new Error('unreachable: the work never fails');
    return 'issued' in outcome.value ? ok(outcome.value.issued) : err(outcome.value.refused);
  }
}
