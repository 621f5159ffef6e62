import type { OAuthClient } from '../../domain/identity/oauth-client.js';
import { ok } from '../../domain/shared/result.js';
import type { OAuthClientRepository } from '../ports/identity-repositories.port.js';
import type { TokenGenerator } from '../ports/token-generator.port.js';
import type { TokenSigner } from '../ports/token-signer.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { IdentitySettings } from './identity-settings.js';
import type { SigningKeys } from './signing-keys.js';

/** The parameters of OpenID Connect RP-Initiated Logout 1.0, section 2, and the browser's session cookie. */
export interface SignOutRequest {
  readonly cookie: string | undefined;
  readonly idTokenHint: string | undefined;
  readonly clientId: string | undefined;
  readonly postLogoutRedirectUri: string | undefined;
  readonly state: string | undefined;
}

/** Where the browser goes next: back to the client, or the signed-out page (with what kept it from going back, if anything was asked). */
export type SignOutOutcome = { readonly redirect: string } | { readonly redirect: null; readonly refusal: string | null };

const MAX_PARAM = 2000;

/**
 * Sign-out: the browser's session ends whatever else the request says (a request that cannot send
 * the browser back still signs it out). The browser goes back to `post_logout_redirect_uri` only
 * when that URI is registered for the client that `id_token_hint` (a token this service signed,
 * expired or not) or `client_id` names, compared exactly, and both name the same client when both
 * are given; otherwise the signed-out page is shown, never a redirect to an unregistered place.
 */
export class SignOut {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clients: OAuthClientRepository,
    private readonly signer: TokenSigner,
    private readonly keys: SigningKeys,
    private readonly generator: TokenGenerator,
    private readonly settings: IdentitySettings,
  ) {}

  async execute(request: SignOutRequest): Promise<SignOutOutcome> {
    const cookie = request.cookie;
    if (cookie !== undefined && cookie.length <= 200) {
      const idHash = this.generator.hash(cookie);
      await this.uow.run(async (tx) => ok(await tx.sessions.delete(idHash)));
    }
    const uri = request.postLogoutRedirectUri;
    if (uri === undefined) return { redirect: null, refusal: null };
    const client = await this.client(request);
    if (typeof client === 'string') return { redirect: null, refusal: client };
    // A client that registered itself (anyone may, with CLIENT_REGISTRATION=open) is named by a token it was given, never by client_id alone.
    if (client.registration !== null && request.idTokenHint === undefined) return { redirect: null, refusal: 'This application must send id_token_hint to be sent back to.' };
    if (!client.allowsPostLogoutRedirectTo(uri)) return { redirect: null, refusal: 'post_logout_redirect_uri is not registered for the application: it must match one exactly.' };
    if (request.state !== undefined && request.state.length > MAX_PARAM) return { redirect: null, refusal: `state must be at most ${MAX_PARAM} characters.` };
    const url = new URL(uri);
    if (request.state !== undefined) url.searchParams.append('state', request.state);
    return { redirect: url.toString() };
  }

  /** The client the request names, or why it names none. */
  private async client(request: SignOutRequest): Promise<OAuthClient | string> {
    let clientId = request.clientId;
    if (clientId !== undefined && clientId.length > MAX_PARAM) return 'client_id is too long.';
    if (request.idTokenHint !== undefined) {
      const claims = request.idTokenHint.length <= 8192 ? await this.signer.verifyAnyAge(request.idTokenHint, 'JWT', await this.keys.published(), this.settings.issuer) : undefined;
      const audience = claims?.['aud'];
      if (typeof audience !== 'string') return 'id_token_hint is not an ID token this service issued.';
      if (clientId !== undefined && clientId !== audience) return 'id_token_hint was issued to another client than client_id.';
      clientId = audience;
    }
    if (clientId === undefined) return 'Without id_token_hint or client_id, no application can be named to go back to.';
    return (await this.clients.get(clientId)) ?? 'No application is registered with this client_id.';
  }
}
