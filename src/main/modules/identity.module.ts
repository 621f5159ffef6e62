import { PurgeIdentity } from '../../application/identity/identity-cleanup.js';
import { ClientRegistrations, IssueInitialAccessToken } from '../../application/identity/client-registration.use-cases.js';
import { DecideDeviceAuthorization, StartDeviceAuthorization } from '../../application/identity/device-flow.use-cases.js';
import { RateLimiter } from '../../application/ports/rate-limiter.port.js';
import { ContainerModule } from 'inversify';
import { AuthenticatePassword } from '../../application/auth/authenticate-password.use-case.js';
import { Authorize, SignIn, ValidateAuthorizationRequest } from '../../application/identity/authorization.use-cases.js';
import { DeleteOAuthClient, ListOAuthClients, RegisterOAuthClient, RotateOAuthClientSecret, UpdateOAuthClient } from '../../application/identity/clients.use-cases.js';
import { SigningKeys } from '../../application/identity/signing-keys.js';
import { AuthenticateClient, IssueTokens } from '../../application/identity/token-endpoint.use-cases.js';
import { RevokeOAuthToken, TokenInfo, UserInfo, VerifyIssuedToken } from '../../application/identity/token-info.use-cases.js';
import { TokenIssuer } from '../../application/identity/token-issuer.js';
import { IntrospectToken } from '../../application/identity/introspection.use-case.js';
import { SignOut } from '../../application/identity/sign-out.use-case.js';
import { Clock } from '../../application/ports/clock.port.js';
import { IdGenerator } from '../../application/ports/id-generator.port.js';
import { ConsentRepository, DeviceAuthorizationRepository, GrantRepository, IdentityPurge, OAuthClientRepository, RefreshTokenRepository, SessionRepository, SigningKeyRepository } from '../../application/ports/identity-repositories.port.js';
import { TokenGenerator } from '../../application/ports/token-generator.port.js';
import { SigningKeyGenerator, TokenSigner } from '../../application/ports/token-signer.port.js';
import { UnitOfWork } from '../../application/ports/unit-of-work.port.js';
import { UserRepository } from '../../application/ports/user-repository.port.js';
import { IdentitySettingsToken } from '../tokens.js';
import type { IdentityUseCases } from '../../adapters/http/identity.routes.js';
import { token } from '../../application/shared/token.js';
import type { Config } from '../config.js';
import type { IdentitySettings } from '../../application/identity/identity-settings.js';
import { construct } from './wiring.js';

/** What the Identity routes need. */
export const IdentityUseCasesToken = token<IdentityUseCases>('IdentityUseCases');

/** The identity service: OAuth 2.0 and OpenID Connect, Google's oauth2 v2 API, signing keys, clients. */
export function identityModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(IdentitySettingsToken).toConstantValue({ issuer: config.publicUrl, scopeBase: config.identity.scopeBase });
    construct(bind, SigningKeys, [SigningKeyRepository, SigningKeyGenerator, Clock]);
    construct(bind, TokenIssuer, [TokenSigner, SigningKeys, IdentitySettingsToken, IdGenerator, Clock]);
    construct(bind, ValidateAuthorizationRequest, [OAuthClientRepository, IdentitySettingsToken]);
    construct(bind, Authorize, [UnitOfWork, SessionRepository, ConsentRepository, TokenIssuer, TokenGenerator, IdGenerator, Clock]);
    construct(bind, SignIn, [AuthenticatePassword, UnitOfWork, TokenGenerator, Clock]);
    construct(bind, AuthenticateClient, [OAuthClientRepository, TokenGenerator, Clock]);
    construct(bind, IssueTokens, [UnitOfWork, TokenIssuer, TokenGenerator, IdentitySettingsToken, Clock]);
    construct(bind, VerifyIssuedToken, [TokenSigner, SigningKeys, GrantRepository, UserRepository, IdentitySettingsToken, Clock]);
    construct(bind, TokenInfo, [VerifyIssuedToken, IdentitySettingsToken, Clock]);
    construct(bind, UserInfo, [VerifyIssuedToken, IdentitySettingsToken]);
    construct(bind, RevokeOAuthToken, [UnitOfWork, RefreshTokenRepository, VerifyIssuedToken, TokenGenerator, Clock]);
    construct(bind, StartDeviceAuthorization, [UnitOfWork, TokenGenerator, IdentitySettingsToken, Clock]);
    construct(bind, DecideDeviceAuthorization, [UnitOfWork, DeviceAuthorizationRepository, OAuthClientRepository, RateLimiter, TokenGenerator, IdGenerator, IdentitySettingsToken, Clock]);
    bind(ClientRegistrations).toResolvedValue(
      (uow: UnitOfWork, clients: OAuthClientRepository, ids: IdGenerator, generator: TokenGenerator, settings: IdentitySettings, clock: Clock) =>
        new ClientRegistrations(uow, clients, ids, generator, settings, config.identity.clientRegistration, clock),
      [UnitOfWork, OAuthClientRepository, IdGenerator, TokenGenerator, IdentitySettingsToken, Clock],
    );
    construct(bind, IssueInitialAccessToken, [UnitOfWork, TokenGenerator, Clock]);
    construct(bind, PurgeIdentity, [IdentityPurge, Clock]);
    construct(bind, SignOut, [UnitOfWork, OAuthClientRepository, TokenSigner, SigningKeys, TokenGenerator, IdentitySettingsToken]);
    construct(bind, IntrospectToken, [RefreshTokenRepository, GrantRepository, VerifyIssuedToken, TokenGenerator, IdentitySettingsToken]);
    construct(bind, RegisterOAuthClient, [UnitOfWork, IdGenerator, TokenGenerator, Clock]);
    construct(bind, ListOAuthClients, [OAuthClientRepository]);
    construct(bind, UpdateOAuthClient, [UnitOfWork]);
    construct(bind, DeleteOAuthClient, [UnitOfWork]);
    construct(bind, RotateOAuthClientSecret, [UnitOfWork, TokenGenerator, Clock]);
    bind(IdentityUseCasesToken).toResolvedValue(
      (
        settings: IdentitySettings,
        keys: SigningKeys,
        validate: ValidateAuthorizationRequest,
        authorize: Authorize,
        signIn: SignIn,
        authenticateClient: AuthenticateClient,
        issueTokens: IssueTokens,
        tokenInfo: TokenInfo,
        userInfo: UserInfo,
        verify: VerifyIssuedToken,
        revoke: RevokeOAuthToken,
        introspect: IntrospectToken,
        signOut: SignOut,
        startDevice: StartDeviceAuthorization,
        device: DecideDeviceAuthorization,
        registrations: ClientRegistrations,
        users: UserRepository,
      ) => ({ settings, keys, validate, authorize, signIn, authenticateClient, issueTokens, tokenInfo, userInfo, verify, revoke, introspect, signOut, startDevice, device, registrations, users }),
      [IdentitySettingsToken, SigningKeys, ValidateAuthorizationRequest, Authorize, SignIn, AuthenticateClient, IssueTokens, TokenInfo, UserInfo, VerifyIssuedToken, RevokeOAuthToken, IntrospectToken, SignOut, StartDeviceAuthorization, DecideDeviceAuthorization, ClientRegistrations, UserRepository],
    );
  });
}
