import type { RateLimit, RateLimiter } from '../../../application/ports/rate-limiter.port.js';
import { HEADERS, json } from '../openapi/route-description.js';
import { object, ref, str } from '../openapi/schemas.js';
import type { StandaloneRouteDefinition } from '../routes.js';
import type { IdentityUseCases } from '../identity.routes.js';
import { BASIC_CHALLENGE, bodyOf, clientCredentials, clientForm, FORM, keyOf, oauthError, oauthFailure, oauthForm, OPTIONAL_CLIENT, overLimit, singleParams, UNREADABLE_BODY } from './oauth-http.js';

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** The token endpoint (authorization code, refresh and device code grants), device authorization (RFC 8628), revocation (RFC 7009) and introspection (RFC 7662). */
export function tokenRoutes(
  deps: Pick<IdentityUseCases, 'authenticateClient' | 'issueTokens' | 'revoke' | 'introspect' | 'startDevice'>,
  limits: { readonly limiter: RateLimiter; readonly tokenEndpoint: RateLimit },
): StandaloneRouteDefinition[] {
  const form = oauthForm();
  return [
    {
      method: 'POST',
      path: '/o/oauth2/device/code',
      summary: 'Device authorization (RFC 8628): a device code to poll with and a user code to show',
      operationId: 'deviceAuthorization',
      tag: 'Identity',
      description: 'For devices without a browser (a CLI, a TV). Public clients send `client_id`; confidential ones authenticate. The user enters the code at `verification_uri` within 10 minutes.',
      security: OPTIONAL_CLIENT,
      requestBody: { required: true, content: { [FORM]: { schema: ref('DeviceAuthorizationRequest') } } },
      responses: {
        200: json('The codes.', ref('DeviceAuthorization'), HEADERS.noStore),
        ...UNREADABLE_BODY,
        401: oauthError('`invalid_client`.', BASIC_CHALLENGE),
        429: oauthError('`slow_down`: too many requests from this client and address (`RATE_LIMIT_TOKEN_ENDPOINT` per minute).', HEADERS.retryAfter),
      },
      middleware: [form],
      handler: async (ctx) => {
        const form = clientForm(ctx);
        if (!form) return;
        const { params, presented } = form;
        if (await overLimit(ctx, limits, `device:${keyOf(presented.clientId)}:${ctx.ip}`, 'Too many device authorization requests from this client and address: try again later.')) return;
        const client = await deps.authenticateClient.execute(presented);
        if (!client.ok) return oauthFailure(ctx, client.error);
        const started = await deps.startDevice.execute(client.value, params['scope']);
        if (!started.ok) return oauthFailure(ctx, started.error);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = started.value;
      },
    },
    {
      method: 'POST',
      path: '/o/oauth2/token',
      summary: 'Token endpoint: authorization_code, refresh_token and device_code grants',
      operationId: 'token',
      tag: 'Identity',
      description:
        'RFC 6749 section 5. Confidential clients authenticate with HTTP Basic or `client_id`/`client_secret` in the body; public clients send `client_id` only. ' +
        'The device code grant (RFC 8628 3.4) answers `authorization_pending`, `slow_down`, `access_denied` or `expired_token` (400) until the user decides.',
      security: OPTIONAL_CLIENT,
      requestBody: { required: true, content: { [FORM]: { schema: ref('TokenRequest') }, 'application/json': { schema: ref('TokenRequest') } } },
      responses: {
        200: json('The tokens.', ref('TokenResponse'), { ...HEADERS.noStore, Pragma: { required: true, description: '`no-cache`', schema: str({ const: 'no-cache' }) } }),
        ...UNREADABLE_BODY,
        401: oauthError('`invalid_client`.', BASIC_CHALLENGE),
        429: oauthError('`slow_down`: too many token requests from this client and address.', HEADERS.retryAfter),
      },
      middleware: [form],
      handler: async (ctx) => {
        const form = clientForm(ctx, ctx.request.body);
        if (!form) return;
        const { params, presented } = form;
        // The client id is untrusted here (checked just below): its hash keeps the key short whatever was sent.
        if (await overLimit(ctx, limits, `token:${keyOf(presented.clientId)}:${ctx.ip}`, 'Too many token requests from this client and address: try again later.')) return;
        const client = await deps.authenticateClient.execute(presented);
        if (!client.ok) return oauthFailure(ctx, client.error);
        const grantType = params['grant_type'];
        const result =
          grantType === 'authorization_code'
            ? await deps.issueTokens.authorizationCode(client.value, { code: params['code'], redirectUri: params['redirect_uri'], codeVerifier: params['code_verifier'] })
            : grantType === 'refresh_token'
              ? await deps.issueTokens.refreshToken(client.value, { refreshToken: params['refresh_token'], scope: params['scope'] })
              : grantType === DEVICE_CODE_GRANT
                ? await deps.issueTokens.deviceCode(client.value, { deviceCode: params['device_code'] })
                : undefined;
        if (!result) return oauthFailure(ctx, { error: grantType ? 'unsupported_grant_type' : 'invalid_request', description: grantType ? `grant_type ${grantType} is not supported.` : 'grant_type is required.' });
        if (!result.ok) return oauthFailure(ctx, result.error);
        ctx.set('Cache-Control', 'no-store');
        ctx.set('Pragma', 'no-cache');
        ctx.body = result.value;
      },
    },
    {
      method: 'POST',
      path: '/o/oauth2/revoke',
      summary: 'Revoke an access or refresh token and its whole grant (RFC 7009)',
      operationId: 'revoke',
      tag: 'Identity',
      description: 'Client authentication is optional; with `client_id` the client must authenticate and can revoke only its own tokens. Unknown tokens are answered `200 {}` too.',
      security: OPTIONAL_CLIENT,
      requestBody: { required: true, content: { [FORM]: { schema: ref('RevocationRequest') }, 'application/json': { schema: ref('RevocationRequest') } } },
      responses: {
        200: json('Done (or nothing to do).', object({}, [], { additionalProperties: false }), HEADERS.noStore),
        ...UNREADABLE_BODY,
        401: oauthError('`invalid_client`.', BASIC_CHALLENGE),
      },
      middleware: [form],
      handler: async (ctx) => {
        const { params } = singleParams({ ...ctx.query, ...bodyOf(ctx) });
        const presented = clientCredentials(ctx, params);
        if (presented === 'both') return oauthFailure(ctx, { error: 'invalid_request', description: 'Authenticate the client one way: HTTP Basic or the body, not both.' });
        let client;
        if (presented.clientId !== undefined) {
          const authenticated = await deps.authenticateClient.execute(presented);
          if (!authenticated.ok) return oauthFailure(ctx, authenticated.error);
          client = authenticated.value;
        }
        if (params['token'] === undefined) return oauthFailure(ctx, { error: 'invalid_request', description: 'token is required.' });
        await deps.revoke.execute(params['token'], client);
        ctx.set('Cache-Control', 'no-store');
        ctx.status = 200;
        ctx.body = {};
      },
    },
    {
      method: 'POST',
      path: '/o/oauth2/introspect',
      summary: 'Whether an access or refresh token is live, for a confidential client (RFC 7662)',
      operationId: 'introspect',
      tag: 'Identity',
      description:
        'The caller authenticates as a confidential client (HTTP Basic or `client_id`/`client_secret` in the body); a public client, or none, is 401 `invalid_client`. ' +
        'A token issued to another client is `{ "active": false }`, as is anything unknown, expired or revoked.',
      security: [{ oauthClient: [] }],
      requestBody: { required: true, content: { [FORM]: { schema: ref('IntrospectionRequest') } } },
      responses: {
        200: json('The answer.', ref('Introspection'), HEADERS.noStore),
        ...UNREADABLE_BODY,
        401: oauthError('`invalid_client`: no client, a public client, or wrong credentials.', BASIC_CHALLENGE),
      },
      middleware: [form],
      handler: async (ctx) => {
        const form = clientForm(ctx);
        if (!form) return;
        const { params, presented } = form;
        const refused = { error: 'invalid_client', description: 'Introspection is for confidential clients: authenticate with the client id and secret.' } as const;
        if (presented.clientId === undefined || presented.clientSecret === undefined) return oauthFailure(ctx, refused);
        const client = await deps.authenticateClient.execute(presented);
        if (!client.ok) return oauthFailure(ctx, client.error);
        if (client.value.isPublic) return oauthFailure(ctx, refused);
        if (params['token'] === undefined) return oauthFailure(ctx, { error: 'invalid_request', description: 'token is required.' });
        ctx.set('Cache-Control', 'no-store');
        ctx.body = await deps.introspect.execute(client.value, params['token'], params['token_type_hint']);
      },
    },
  ];
}
