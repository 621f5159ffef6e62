import { SCOPES } from '../../../domain/token/scope.js';
import type { JsonSchema } from './openapi.types.js';
import { ref, str, bool, array, nullable, object, closed, listOf, uuid, timestamp, positiveId, NICKNAME } from './schemas.js';

const SCOPE = str({ enum: SCOPES, description: '`X.readonly` permits GET and HEAD in area X; `X` permits every method and implies `X.readonly`.' });

const TOKEN_PROPERTIES: Record<string, JsonSchema> = {
  id: uuid('UUIDv7'),
  name: str({ minLength: 1, maxLength: 100 }),
  scopes: array(SCOPE, { minItems: 1 }),
  creationDate: timestamp('When it was created.'),
};

/** The User-API: the profile, the password, API tokens and e-mail verification. */
export const USERS_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Profile: object({
    id: positiveId('The user id.'),
    email: str({ format: 'email' }),
    emailVerified: bool(),
    nickname: str(NICKNAME),
    name: nullable(str()),
    givenName: nullable(str()),
    familyName: nullable(str()),
    picture: nullable(str()),
    locale: nullable(str()),
    accountId: positiveId('The personal account.'),
    plan: ref('Plan'),
  }),
  Plan: object(
    {
      name: str({ enum: ['free', 'private'] }),
      trial: bool('On a trial of the Private plan (which becomes the free plan at `trialEndDate`).'),
      trialEndDate: nullable(timestamp('When the trial ends; null when not on a trial.')),
    },
    ['name', 'trial', 'trialEndDate'],
    { description: "The account's plan now (what it allows: the operator's configuration, see docs/configuration.md)." },
  ),
  UpdateProfile: closed({
    nickname: str(NICKNAME),
    name: nullable(str({ minLength: 1, maxLength: 200 })),
    givenName: nullable(str({ minLength: 1, maxLength: 200 })),
    familyName: nullable(str({ minLength: 1, maxLength: 200 })),
    picture: nullable(str({ maxLength: 2048, description: 'An absolute http or https URL.' })),
    locale: nullable(str({ pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$', description: 'A language tag such as `en` or `pt-BR`.' })),
  }),
  ChangePassword: closed({ currentPassword: str(), newPassword: str({ minLength: 10, maxLength: 256 }) }, ['currentPassword', 'newPassword']),
  ApiToken: object({ ...TOKEN_PROPERTIES, lastUseDate: nullable(str({ format: 'date-time', description: 'Written at most once a minute.' })) }),
  ApiTokenList: listOf('ApiToken', 'Tokens in creation order; never the token itself.'),
  CreateApiToken: closed({ name: str({ minLength: 1, maxLength: 100 }), scopes: array(SCOPE, { minItems: 1 }) }, ['name', 'scopes']),
  CreatedApiToken: object({ ...TOKEN_PROPERTIES, token: str({ pattern: '^sbt_[A-Za-z0-9_-]{43}$', description: 'Shown this once; only its hash is stored.' }) }),
  VerificationSent: object({ email: str({ format: 'email' }), expirationDate: timestamp('When the link stops working (24 hours).') }),
  ConfirmEmailVerification: closed({ token: str({ description: '`sbv_` and 43 base64url characters, from the message.' }) }, ['token']),
  EmailVerified: object({ email: str({ format: 'email' }), emailVerified: { const: true } }),
  ConnectedApp: object({
    clientId: str({ description: 'The OAuth client id (`...apps.specbase`).' }),
    clientName: str(),
    scopes: array(str(), { description: 'The scope names allowed, as the application asked for them (`openid`, `email`, `profile` or their Google spellings).' }),
    creationDate: timestamp('When the user first allowed it.'),
    lastUseDate: nullable(str({ format: 'date-time', description: 'When it last got tokens for the user (a code redeemed, a refresh); `null` before that.' })),
  }),
  ConnectedAppList: listOf('ConnectedApp', 'Every application the user allowed, oldest first, on one page (`nextCursor` is always `null`).'),
};
