import { HEADERS, htmlPage, json, jsonBody, LIST_PARAMETERS, noBody, type StandaloneRoute } from './route-description.js';
import { ref, str } from './schemas.js';

const PASSWORD = [{ password: [] }];
const PASSWORD_PROBLEMS = ['invalid_credentials', 'rate_limited'] as const;
const JSON_BODY_PROBLEMS = ['validation_failed', 'invalid_json', 'invalid_request', 'payload_too_large', 'unsupported_media_type'] as const;

/** Routes behind the account's e-mail and password (never a token), and the verification link's own. */
export const USER_API_STANDALONE_ROUTES: readonly StandaloneRoute[] = [
  {
    method: 'GET',
    path: '/user/tokens',
    summary: "The user's API tokens",
    operationId: 'listApiTokens',
    tag: 'API tokens',
    security: PASSWORD,
    parameters: LIST_PARAMETERS,
    responses: { 200: json('A page of tokens, in creation order.', ref('ApiTokenList'), HEADERS.noStore) },
    problems: [...PASSWORD_PROBLEMS, 'validation_failed'],
  },
  {
    method: 'POST',
    path: '/user/tokens',
    summary: 'Create an API token (shown once)',
    operationId: 'createApiToken',
    tag: 'API tokens',
    description: 'Needs a verified e-mail address.',
    security: PASSWORD,
    requestBody: jsonBody(ref('CreateApiToken')),
    responses: { 201: json('The token, with `token` for the only time.', ref('CreatedApiToken'), { ...HEADERS.noStore, ...HEADERS.location }) },
    problems: [...PASSWORD_PROBLEMS, ...JSON_BODY_PROBLEMS, 'email_not_verified', 'plan_limit'],
  },
  {
    method: 'DELETE',
    path: '/user/tokens/:tokenId',
    summary: 'Revoke an API token',
    operationId: 'revokeApiToken',
    tag: 'API tokens',
    security: PASSWORD,
    responses: { 204: noBody('Revoked: the next request with it gets 401.') },
    problems: [...PASSWORD_PROBLEMS, 'not_found'],
  },
  {
    method: 'POST',
    path: '/user/email/verification',
    summary: 'Send an e-mail verification link',
    operationId: 'requestEmailVerification',
    tag: 'E-mail verification',
    description: 'No body. Sends a one-time link, valid 24 hours, to the address; only the newest link works.',
    security: PASSWORD,
    responses: { 202: json('Handed to the mailer.', ref('VerificationSent'), HEADERS.noStore) },
    problems: [...PASSWORD_PROBLEMS, 'email_already_verified'],
  },
  {
    method: 'GET',
    path: '/user/email/verify',
    summary: 'The page a verification link opens (changes nothing)',
    operationId: 'showEmailVerification',
    tag: 'E-mail verification',
    security: [],
    parameters: [{ name: 'token', in: 'query', required: true, description: 'From the message: `sbv_` and 43 base64url characters.', schema: str() }],
    responses: {
      200: htmlPage('A page whose button POSTs the token back.', HEADERS.noStore),
      400: htmlPage('The link is cut short or changed.', HEADERS.noStore),
    },
  },
  {
    method: 'POST',
    path: '/user/email/verify',
    summary: 'Confirm the e-mail address with the token from the message',
    operationId: 'confirmEmailVerification',
    tag: 'E-mail verification',
    description: 'A form (what the page sends) answers an HTML page; JSON (`application/json` only) answers JSON. The token is the only credential.',
    security: [],
    requestBody: {
      required: true,
      content: {
        'application/json': { schema: ref('ConfirmEmailVerification') },
        'application/x-www-form-urlencoded': { schema: ref('ConfirmEmailVerification') },
      },
    },
    responses: {
      200: {
        description: 'Verified.',
        headers: HEADERS.noStore,
        content: { 'application/json': { schema: ref('EmailVerified') }, 'text/html': { schema: str() } },
      },
      400: htmlPage('A form with a token that no longer works.', HEADERS.noStore),
    },
    problems: JSON_BODY_PROBLEMS,
  },
];
