import type { Context } from 'koa';
import { bearerToken } from '../authenticate.js';
import { HEADERS, json } from '../openapi/route-description.js';
import { ref } from '../openapi/schemas.js';
import { REALM } from '../problem.js';
import type { StandaloneRouteDefinition } from '../routes.js';
import type { IdentityUseCases } from '../identity.routes.js';
import { ACCESS_TOKEN, ACCESS_TOKEN_QUERY, bodyOf, FORM, oauthError, oauthForm, singleParams, TOKENINFO_QUERY, UNAUTHENTICATED } from './oauth-http.js';

function presentedAccessToken(ctx: Context): string | undefined {
  const bearer = bearerToken(ctx);
  const query = ctx.query['access_token'];
  return bearer ?? (typeof query === 'string' ? query : undefined);
}

function unauthenticated(ctx: Context): void {
  ctx.status = 401;
  ctx.set('WWW-Authenticate', `Bearer realm="${REALM}", error="invalid_token"`);
  ctx.body = { error: { code: 401, message: 'Invalid Credentials', status: 'UNAUTHENTICATED' } };
}

/** Google's Tokeninfo and Userinfoplus, and OpenID Connect's UserInfo. */
export function userinfoRoutes(deps: Pick<IdentityUseCases, 'tokenInfo' | 'userInfo'>): StandaloneRouteDefinition[] {
  const tokeninfo = async (ctx: Context) => {
    const { params } = singleParams({ ...ctx.query, ...bodyOf(ctx) });
    const bearer = bearerToken(ctx);
    const accessToken = params['access_token'] ?? (params['id_token'] === undefined ? bearer : undefined);
    const result = await deps.tokenInfo.execute({ accessToken, idToken: params['id_token'] });
    ctx.set('Cache-Control', 'no-store');
    if (result.ok) {
      ctx.body = result.value;
    } else {
      ctx.status = 400;
      ctx.body = { error: 'invalid_token', error_description: 'Invalid Value' };
    }
  };
  const userinfo = async (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store');
    const result = await deps.userInfo.execute(presentedAccessToken(ctx));
    if (result.ok) ctx.body = result.value;
    else unauthenticated(ctx);
  };
  /** Google's Userinfoplus, at either of its two paths. */
  const userinfoRoute = (path: string, operationId: string, summary: string): StandaloneRouteDefinition => ({
    method: 'GET',
    path,
    summary,
    operationId,
    tag: 'Identity',
    security: ACCESS_TOKEN,
    parameters: [ACCESS_TOKEN_QUERY],
    responses: { 200: json('Fields by the scope of the token.', ref('Userinfo'), HEADERS.noStore), 401: UNAUTHENTICATED },
    handler: userinfo,
  });
  return [
    {
      method: 'GET',
      path: '/oauth2/v2/tokeninfo',
      summary: "Google's Tokeninfo of an access or ID token",
      operationId: 'tokeninfo',
      tag: 'Identity',
      security: [{}, ...ACCESS_TOKEN],
      parameters: TOKENINFO_QUERY,
      responses: {
        200: json('What the token is.', ref('Tokeninfo'), HEADERS.noStore),
        400: oauthError('`invalid_token` (`Invalid Value`): unknown, malformed, expired or revoked, or none.'),
      },
      handler: tokeninfo,
    },
    {
      method: 'POST',
      path: '/oauth2/v2/tokeninfo',
      summary: "Google's Tokeninfo, the token in the body",
      operationId: 'tokeninfoByPost',
      tag: 'Identity',
      security: [{}, ...ACCESS_TOKEN],
      parameters: TOKENINFO_QUERY,
      requestBody: { content: { [FORM]: { schema: ref('TokeninfoRequest') }, 'application/json': { schema: ref('TokeninfoRequest') } } },
      responses: {
        200: json('What the token is.', ref('Tokeninfo'), HEADERS.noStore),
        400: oauthError('`invalid_token` (`Invalid Value`), or `invalid_request` for an unreadable body.'),
        413: oauthError('`invalid_request`: the body is over 16 KiB.'),
      },
      middleware: [oauthForm()],
      handler: tokeninfo,
    },
    userinfoRoute('/oauth2/v2/userinfo', 'userinfo', "Google's Userinfoplus of the token's user"),
    userinfoRoute('/userinfo/v2/me', 'me', 'The same as /oauth2/v2/userinfo'),
    // OpenID Connect's UserInfo (standard claims, `sub`), which discovery names, as Google's v3 endpoint is.
    {
      method: 'GET',
      path: '/oauth2/v3/userinfo',
      summary: 'OpenID Connect UserInfo (`sub`, `email_verified`)',
      operationId: 'openIdUserinfo',
      tag: 'Identity',
      security: ACCESS_TOKEN,
      parameters: [ACCESS_TOKEN_QUERY],
      responses: { 200: json('Claims by the scope of the token.', ref('OpenIdUserinfo'), HEADERS.noStore), 401: UNAUTHENTICATED },
      handler: async (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        const result = await deps.userInfo.execute(presentedAccessToken(ctx));
        if (!result.ok) return unauthenticated(ctx);
        const { id, verified_email: verified, ...rest } = result.value;
        ctx.body = { sub: id, ...rest, ...(verified === undefined ? {} : { email_verified: verified }) };
      },
    },
  ];
}
