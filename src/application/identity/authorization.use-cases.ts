import type { UserId } from '../../domain/account/account.js';
import { CODE_TTL_MS, SESSION_TTL_MS, consentCovers, sessionIsLive, widenConsent, type Grant } from '../../domain/identity/grant.js';
import type { OAuthClient } from '../../domain/identity/oauth-client.js';
import { parseScope, scopeClaims, type GrantedScope } from '../../domain/identity/oauth-scope.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { AuthenticatePassword } from '../auth/authenticate-password.use-case.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { OAuthClientRepository, SessionRepository, ConsentRepository } from '../ports/identity-repositories.port.js';
import type { TokenGenerator } from '../ports/token-generator.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { IdentitySettings } from './identity-settings.js';
import { oauthError, type OAuthError } from './oauth-error.js';
import type { TokenIssuer } from './token-issuer.js';

export type Prompt = 'none' | 'login' | 'consent' | 'select_account';

/** A checked authorization request (RFC 6749 4.1.1 / 4.2.1, with PKCE and OpenID Connect's `prompt` and `nonce`). */
export interface AuthorizationRequest {
  readonly client: OAuthClient;
  readonly redirectUri: string;
  readonly responseType: 'code' | 'token';
  readonly scope: GrantedScope;
  readonly state: string | null;
  readonly codeChallenge: string | null;
  readonly nonce: string | null;
  readonly offline: boolean;
  readonly prompt: ReadonlySet<Prompt>;
}

/**
 * Why a request cannot go on. `redirect: false` is shown to the person on a page and never sent
 * anywhere: an unknown client or an unregistered redirect URI (RFC 6749 4.1.2.1), and any error of
 * a client whose redirect URIs are not verified (`errorBeforeTheUser`). Anything else goes back to
 * the client's redirect URI.
 */
export type AuthorizationFailure = { readonly redirect: false; readonly error: OAuthError } | { readonly redirect: true; readonly error: OAuthError; readonly request: RedirectTarget };

/** Where and how a response goes back to the client. */
export interface RedirectTarget {
  readonly redirectUri: string;
  readonly responseType: 'code' | 'token';
  readonly state: string | null;
}

const PROMPTS: readonly Prompt[] = ['none', 'login', 'consent', 'select_account'];
const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_PARAM = 2000;

/** Builds the redirect back to the client: query for the code flow, fragment for the implicit flow. */
export function redirectUrl(target: RedirectTarget, params: Readonly<Record<string, string>>): string {
  const url = new URL(target.redirectUri);
  const values = new URLSearchParams(params);
  if (target.state !== null) values.set('state', target.state);
  if (target.responseType === 'token') url.hash = values.toString();
  else for (const [name, value] of values) url.searchParams.append(name, value);
  return url.toString();
}

export function errorRedirect(target: RedirectTarget, error: OAuthError): string {
  return redirectUrl(target, { error: error.error, error_description: error.description });
}

/**
 * An error that comes before the user has been asked (a bad request, `prompt=none`'s
 * `login_required` and `consent_required`): back to the client only when its redirect URIs are
 * verified (the operator's clients, those registered with an initial access token). Sending it to
 * an openly registered client's URI would let anyone register `https://evil.example/cb` and use
 * this server's address to send browsers there with no one in the loop (RFC 9700 4.11.2), so the
 * person sees it on a page instead. Once the user has answered (access_denied), the answer goes
 * back to every client.
 */
export function errorBeforeTheUser(client: OAuthClient, target: RedirectTarget, error: OAuthError): AuthorizationFailure {
  return client.redirectUrisVerified ? { redirect: true, error, request: target } : { redirect: false, error };
}

/** Checks the parameters of `/o/oauth2/auth` in the order RFC 6749 4.1.2.1 asks. */
export class ValidateAuthorizationRequest {
  constructor(
    private readonly clients: OAuthClientRepository,
    private readonly settings: IdentitySettings,
  ) {}

  async execute(params: Readonly<Record<string, string | undefined>>): Promise<Result<AuthorizationRequest, AuthorizationFailure>> {
    const show = (description: string, error: OAuthError['error'] = 'invalid_request') => err({ redirect: false as const, error: oauthError(error, description) });
    const clientId = params['client_id'];
    if (!clientId) return show('The request names no client (client_id).');
    const client = clientId.length <= MAX_PARAM ? await this.clients.get(clientId) : undefined;
    if (!client) return show('No application is registered with this client_id.', 'invalid_client');
    const redirectUri = params['redirect_uri'];
    if (!redirectUri) return show('The request names no redirect_uri.');
    if (!client.allowsRedirectTo(redirectUri)) return show('This redirect_uri is not registered for the application: it must match one exactly.');

    const responseType = params['response_type'] === 'token' ? 'token' : 'code';
    const state = params['state'] ?? null;
    const target: RedirectTarget = { redirectUri, responseType, state };
    const back = (error: OAuthError['error'], description: string) => err(errorBeforeTheUser(client, target, oauthError(error, description)));
    if (state !== null && state.length > MAX_PARAM) return back('invalid_request', `state must be at most ${MAX_PARAM} characters.`);
    if (params['response_type'] !== 'code' && params['response_type'] !== 'token') return back('unsupported_response_type', 'response_type must be code or token.');
    if (!client.allowsResponseType(responseType)) return back('unauthorized_client', `This application did not register the response type ${responseType}.`);
    const scope = parseScope(params['scope'], scopeClaims(this.settings.scopeBase));
    if (!scope.ok) return back('invalid_scope', scope.error.kind === 'EmptyScope' ? 'The request asks for no scope.' : `Unknown scope: ${scope.error.scope}`);
    if (!client.allowsScope(scope.value.value)) return back('invalid_scope', 'The request asks for a scope this application did not register.');

    const challenge = params['code_challenge'] ?? null;
    const method = params['code_challenge_method'];
    if (challenge !== null) {
      if (responseType !== 'code') return back('invalid_request', 'PKCE belongs to the authorization code flow.');
      if (method !== 'S256') return back('invalid_request', 'code_challenge_method must be S256 (plain is not accepted).');
      if (!PKCE_CHALLENGE.test(challenge)) return back('invalid_request', 'code_challenge must be 43 base64url characters (an S256 hash).');
    } else if (method !== undefined) {
      return back('invalid_request', 'code_challenge_method without code_challenge.');
    } else if (client.isPublic && responseType === 'code') {
      return back('invalid_request', 'A public client must use PKCE: send code_challenge with code_challenge_method=S256.');
    }

    const prompt = new Set<Prompt>();
    for (const value of (params['prompt'] ?? '').split(' ').filter((p) => p !== '')) {
      if (!PROMPTS.includes(value as Prompt)) return back('invalid_request', `Unknown prompt value: ${value}`);
      prompt.add(value as Prompt);
    }
    if (prompt.has('none') && prompt.size > 1) return back('invalid_request', 'prompt=none cannot be combined with other values.');
    const accessType = params['access_type'] ?? 'online';
    if (accessType !== 'online' && accessType !== 'offline') return back('invalid_request', 'access_type must be online or offline.');
    const nonce = params['nonce'] ?? null;
    if (nonce !== null && nonce.length > MAX_PARAM) return back('invalid_request', `nonce must be at most ${MAX_PARAM} characters.`);

    return ok({ client, redirectUri, responseType, scope: scope.value, state, codeChallenge: challenge, nonce, offline: accessType === 'offline' && responseType === 'code', prompt });
  }
}

/** The browser's signed-in user, if its session cookie names a live session. */
export interface SignedIn {
  readonly userId: UserId;
  readonly authTime: Date;
}

/** What the authorization endpoint does next for a valid request; `error` is shown on a page, sent nowhere. */
export type NextStep =
  | { readonly kind: 'login' }
  | { readonly kind: 'consent'; readonly user: SignedIn }
  | { readonly kind: 'redirect'; readonly location: string }
  | { readonly kind: 'error'; readonly error: OAuthError };

/**
 * The decisions of `/o/oauth2/auth`: sign in, ask for consent, or answer the client. A user who
 * consented to the same client and scopes before and has a session is not asked again unless
 * `prompt=consent`; `prompt=none` never shows the login or consent page (OpenID Connect Core
 * 3.1.2.1), only, for a client whose redirect URIs are not verified, the error page.
 */
export class Authorize {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly sessions: SessionRepository,
    private readonly consents: ConsentRepository,
    private readonly issuer: TokenIssuer,
    private readonly generator: TokenGenerator,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** The live session a cookie value names, if any. */
  async session(cookie: string | undefined): Promise<SignedIn | undefined> {
    if (!cookie || cookie.length > 200) return undefined;
    const session = await this.sessions.get(this.generator.hash(cookie));
    return session && sessionIsLive(session, this.clock.now()) ? { userId: session.userId, authTime: session.authTime } : undefined;
  }

  async next(request: AuthorizationRequest, user: SignedIn | undefined): Promise<NextStep> {
    // prompt=none asks nobody: its errors come before the user too.
    const unasked = (error: OAuthError): NextStep => {
      const failure = errorBeforeTheUser(request.client, request, error);
      return failure.redirect ? { kind: 'redirect', location: errorRedirect(failure.request, failure.error) } : { kind: 'error', error: failure.error };
    };
    if (!user || request.prompt.has('login')) {
      return request.prompt.has('none') ? unasked(oauthError('login_required', 'The user is not signed in.')) : { kind: 'login' };
    }
    const consent = await this.consents.get(user.userId, request.client.id);
    if (consentCovers(consent, request.scope.value) && !request.prompt.has('consent')) return { kind: 'redirect', location: await this.answer(request, user) };
    if (request.prompt.has('none')) return unasked(oauthError('consent_required', 'The user has not allowed this application these scopes.'));
    return { kind: 'consent', user };
  }

  /** The user's answer on the consent page. */
  async decide(request: AuthorizationRequest, user: SignedIn, allow: boolean): Promise<string> {
    if (!allow) return errorRedirect(request, oauthError('access_denied', 'The user denied the request.'));
    await this.uow.run(async (tx) => {
      const earlier = await tx.consents.get(user.userId, request.client.id);
      await tx.consents.save(widenConsent(earlier, { userId: user.userId, clientId: request.client.id, scope: request.scope.value }, this.clock.now()));
      return ok();
    });
    return this.answer(request, user);
  }

  /** A new grant, and the code (code flow) or access token (implicit flow) that answers the client. */
  private async answer(request: AuthorizationRequest, user: SignedIn): Promise<string> {
    const now = this.clock.now();
    const grant: Grant = { id: this.ids.next(), clientId: request.client.id, userId: user.userId, scope: request.scope.value, offline: request.offline, creationDate: now, revocationDate: null };
    if (request.responseType === 'token') {
      const key = await this.issuer.signingKey();
      await this.uow.run(async (tx) => {
        await tx.grants.add(grant);
        await tx.consents.touch(grant.userId, grant.clientId, now);
        return ok();
      });
      const access = await this.issuer.accessToken(grant, key);
      return redirectUrl(request, { access_token: access.token, token_type: 'Bearer', expires_in: String(access.expiresIn), scope: grant.scope });
    }
    const code = this.generator.secret('sbc_');
    await this.uow.run(async (tx) => {
      await tx.grants.add(grant);
      await tx.codes.add({
        codeHash: code.hash,
        grantId: grant.id,
        clientId: grant.clientId,
        userId: user.userId,
        redirectUri: request.redirectUri,
        scope: grant.scope,
        codeChallenge: request.codeChallenge,
        nonce: request.nonce,
        offline: request.offline,
        authTime: user.authTime,
        expirationDate: new Date(now.getTime() + CODE_TTL_MS),
        consumptionDate: null,
      });
      return ok();
    });
    return redirectUrl(request, { code: code.token, scope: grant.scope });
  }
}

export type SignInError = { readonly kind: 'WrongCredentials' } | { readonly kind: 'RateLimited'; readonly retryAfterMs: number };

/** The login form: e-mail and password to a new session, whose cookie value is returned once. */
export class SignIn {
  constructor(
    private readonly authenticate: AuthenticatePassword,
    private readonly uow: UnitOfWork,
    private readonly generator: TokenGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: { readonly email: string; readonly password: string; readonly ip: string }): Promise<Result<{ readonly cookie: string; readonly user: SignedIn }, SignInError>> {
    const user = await this.authenticate.execute(input.email, input.password, input.ip);
    if (!user.ok) return err(user.error.kind === 'RateLimited' ? { kind: 'RateLimited', retryAfterMs: user.error.retryAfterMs } : { kind: 'WrongCredentials' });
    const now = this.clock.now();
    const secret = this.generator.secret('');
    const session = { idHash: secret.hash, userId: user.value, authTime: now, expirationDate: new Date(now.getTime() + SESSION_TTL_MS) };
    await this.uow.run(async (tx) => ok(await tx.sessions.add(session)));
    return ok({ cookie: secret.token, user: { userId: user.value, authTime: now } });
  }
}
