import type { ClientRegistrations } from '../../application/identity/client-registration.use-cases.js';
import { registrationRoutes } from './identity/registration.routes.js';
import type { DecideDeviceAuthorization, StartDeviceAuthorization } from '../../application/identity/device-flow.use-cases.js';
import { deviceRoutes } from './identity/device.routes.js';
import type { SignOut } from '../../application/identity/sign-out.use-case.js';
import { signOutRoutes } from './identity/sign-out.routes.js';
import type { IntrospectToken } from '../../application/identity/introspection.use-case.js';
import type { Authorize, SignIn, ValidateAuthorizationRequest } from '../../application/identity/authorization.use-cases.js';
import type { SigningKeys } from '../../application/identity/signing-keys.js';
import type { AuthenticateClient, IssueTokens } from '../../application/identity/token-endpoint.use-cases.js';
import type { RevokeOAuthToken, TokenInfo, UserInfo, VerifyIssuedToken } from '../../application/identity/token-info.use-cases.js';
import type { IdentitySettings } from '../../application/identity/identity-settings.js';
import type { RateLimit, RateLimiter } from '../../application/ports/rate-limiter.port.js';
import type { UserRepository } from '../../application/ports/user-repository.port.js';
import { authorizationRoutes } from './identity/authorization.routes.js';
import { discoveryRoutes } from './identity/discovery.routes.js';
import { tokenRoutes } from './identity/token.routes.js';
import { userinfoRoutes } from './identity/userinfo.routes.js';
import type { StandaloneRouteDefinition } from './routes.js';
import { signInRoutes } from './sign-in.routes.js';

export interface IdentityUseCases {
  readonly settings: IdentitySettings;
  readonly keys: SigningKeys;
  readonly validate: ValidateAuthorizationRequest;
  readonly authorize: Authorize;
  readonly signIn: SignIn;
  readonly authenticateClient: AuthenticateClient;
  readonly issueTokens: IssueTokens;
  readonly tokenInfo: TokenInfo;
  readonly userInfo: UserInfo;
  readonly verify: VerifyIssuedToken;
  readonly revoke: RevokeOAuthToken;
  readonly introspect: IntrospectToken;
  readonly signOut: SignOut;
  readonly startDevice: StartDeviceAuthorization;
  readonly device: DecideDeviceAuthorization;
  readonly registrations: ClientRegistrations;
  readonly users: UserRepository;
}

export interface IdentityLimits {
  readonly limiter: RateLimiter;
  readonly tokenEndpoint: RateLimit;
}

/**
 * The identity service: Google's oauth2 v2 API (certs, tokeninfo, userinfo, me) and an OAuth 2.0
 * authorization server (authorization code with PKCE, implicit, refresh, revocation) with its own
 * login and consent pages, and the sign-in page of Specbase's own pages. Errors speak OAuth (RFC 6749 5.2) and Google's shapes, not problem+json.
 * Each route declares its contract beside its handler (`identity/*.routes.ts`); nothing is read
 * from `deps` until a request comes, so the description can be built without them.
 */
export function identityRoutes(deps: IdentityUseCases, limits: IdentityLimits): StandaloneRouteDefinition[] {
  return [...authorizationRoutes(deps), ...signInRoutes(deps), ...signOutRoutes(deps), ...deviceRoutes(deps), ...registrationRoutes(deps, limits), ...tokenRoutes(deps, limits), ...discoveryRoutes(deps), ...userinfoRoutes(deps)];
}
