import type { ClientRegistration } from '../../domain/identity/oauth-client.js';
import type { AccountId, UserId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import type { GrantId } from '../../domain/identity/grant.js';
import type { PageId } from '../../domain/page/page.aggregate.js';
import type { ReleaseId } from '../../domain/release/release.aggregate.js';
import type { ShareId } from '../../domain/share/share.aggregate.js';
import type { ApiTokenId } from '../../domain/token/api-token.aggregate.js';
import type { DeliveryId } from '../../domain/webhook/delivery.aggregate.js';
import type { WebhookId } from '../../domain/webhook/webhook.aggregate.js';
import type { Scope } from '../../domain/token/scope.js';
import type { ApiType } from '../../domain/api/api.aggregate.js';
import type { SpecFormat } from '../../domain/spec/spec-document.js';
import type { BreakingChangePolicy } from '../../domain/spec/changes/policy.js';

/** Rows as stored: persistence shapes, mapped to and from aggregates in the repositories. */
export interface AccountRow {
  id: AccountId;
  creationDate: Date;
  plan: 'free' | 'private';
  trialEndDate: Date | null;
  trialReminderDate: Date | null;
}

export interface UserRow {
  id: UserId;
  accountId: AccountId;
  email: string;
  emailVerified: boolean;
  passwordHash: string;
  nickname: string;
  name: string | null;
  givenName: string | null;
  familyName: string | null;
  picture: string | null;
  locale: string | null;
  creationDate: Date;
}

export interface ApiTokenRow {
  id: ApiTokenId;
  userId: UserId;
  name: string;
  scopes: Scope[];
  tokenHash: string;
  creationDate: Date;
  lastUseDate: Date | null;
}

export interface ApiRow {
  id: ApiId;
  accountId: AccountId;
  userId: UserId;
  owner?: UserRow;
  nickname: string;
  name: string;
  type: ApiType;
  revision: number;
  description: string | null;
  version: string | null;
  specFormat: SpecFormat | null;
  breakingChangePolicy: BreakingChangePolicy;
  allowRemovalAfterSunset: boolean;
  creationDate: Date;
  updateDate: Date;
}

export interface OutboxRow {
  id: string;
  accountId: AccountId;
  name: string;
  payload: string;
  occurredAt: Date;
  dispatchedAt: Date | null;
}

export interface ApiSpecRow {
  apiId: ApiId;
  format: 'yaml' | 'json';
  source: string;
  document: string;
  updateDate: Date;
}

export interface ApiDerivedRow {
  apiId: ApiId;
  kind: string;
  position: number;
  data: string;
}

export interface ApiReleaseRow {
  id: ReleaseId;
  apiId: ApiId;
  accountId: AccountId;
  version: string;
  status: 'released' | 'deprecated' | 'endOfLife';
  releaseDate: Date;
  format: 'yaml' | 'json';
  source: string;
  document: string;
  revision: number | null;
  /** JSON of ReleaseChanges; null for releases made before spec history was kept. */
  changes: string | null;
}

export interface ApiRevisionRow {
  apiId: ApiId;
  revision: number;
  creationDate: Date;
  userId: UserId;
  specFormat: SpecFormat;
  syntax: 'yaml' | 'json';
  /** JSON arrays of the keys of the texts' chunks (spec_chunks); null for the current spec, which is in api_specs. */
  sourceChunks: string | null;
  documentChunks: string | null;
  /** JSON of StoredChanges; null for an API's first spec. */
  changes: string | null;
  /** The revision `changes` were recorded against (the spec before it then); migration 0018. */
  changesFrom: number | null;
  reason: string | null;
}

export interface SpecChunkRow {
  apiId: ApiId;
  key: string;
  /** Deflated UTF-8. */
  data: Buffer;
}

export interface WebhookRow {
  id: WebhookId;
  accountId: AccountId;
  targetUrl: string;
  events: string[];
  secret: string;
  active: boolean;
  creationDate: Date;
  updateDate: Date;
  lastResponse: { status: number | null; body: string; durationMs: number; date: string } | null;
  failingSince: Date | null;
  deactivationReason: string | null;
}

export interface DeliveryRow {
  id: DeliveryId;
  webhookId: WebhookId;
  accountId: AccountId;
  eventId: string;
  event: string;
  dispatchKey: string | null;
  state: 'pending' | 'succeeded' | 'failed';
  attempts: { date: string; status: number | null; durationMs: number; error: string | null; responseBody: string }[];
  nextAttemptDate: Date | null;
  creationDate: Date;
}

/** An event's webhook body, once for all its deliveries (migration 0024). */
export interface WebhookPayloadRow {
  eventId: string;
  payload: string;
  creationDate: Date;
}

export interface PageRow {
  id: PageId;
  apiId: ApiId;
  accountId: AccountId;
  title: string;
  slug: string;
  body: string;
  position: number;
  creationDate: Date;
  updateDate: Date;
}

export interface ShareRow {
  id: ShareId;
  apiId: ApiId;
  accountId: AccountId;
  userId: UserId;
  role: 'viewer' | 'editor';
  creationDate: Date;
  updateDate: Date;
  grantee?: UserRow;
}

export interface EmailVerificationRow {
  userId: UserId;
  email: string;
  tokenHash: string;
  expirationDate: Date;
  creationDate: Date;
}

export interface OAuthClientRow {
  id: string;
  name: string;
  secretHash: string | null;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  previousSecretHash: string | null;
  previousSecretExpirationDate: Date | null;
  registration: ClientRegistration | null;
  /** Migration 0025. */
  redirectUrisVerified: boolean;
  creationDate: Date;
}

export interface InitialAccessTokenRow {
  tokenHash: string;
  creationDate: Date;
  expirationDate: Date;
  useDate: Date | null;
}

export interface GrantRow {
  id: GrantId;
  clientId: string;
  userId: UserId;
  scope: string;
  offline: boolean;
  creationDate: Date;
  revocationDate: Date | null;
}

export interface CodeRow {
  codeHash: string;
  grantId: GrantId;
  clientId: string;
  userId: UserId;
  redirectUri: string;
  scope: string;
  codeChallenge: string | null;
  nonce: string | null;
  offline: boolean;
  authTime: Date;
  expirationDate: Date;
  consumptionDate: Date | null;
}

export interface RefreshTokenRow {
  tokenHash: string;
  grantId: GrantId;
  clientId: string;
  userId: UserId;
  scope: string;
  creationDate: Date;
  rotationDate: Date | null;
}

export interface DeviceCodeRow {
  deviceCodeHash: string;
  userCodeHash: string;
  clientId: string;
  scope: string;
  status: 'pending' | 'approved' | 'denied' | 'consumed';
  userId: UserId | null;
  grantId: GrantId | null;
  intervalS: number;
  lastPollDate: Date | null;
  creationDate: Date;
  expirationDate: Date;
}

export interface SessionRow {
  idHash: string;
  userId: UserId;
  authTime: Date;
  expirationDate: Date;
}

export interface ConsentRow {
  userId: UserId;
  clientId: string;
  scope: string;
  date: Date;
  creationDate: Date;
  lastUseDate: Date | null;
}

export interface SigningKeyRow {
  kid: string;
  privateKeyPem: string;
  publicJwk: Record<string, string>;
  certificatePem: string;
  creationDate: Date;
  activationDate: Date;
}
