import type { Scope } from '../../domain/token/scope.js';
import type { ApiType } from '../../domain/api/api.aggregate.js';
import type { SpecFormat } from '../../domain/spec/spec-document.js';
import type { BreakingChangePolicy } from '../../domain/spec/changes/policy.js';

/** Rows as stored: persistence shapes, mapped to and from aggregates in the repositories. */
export interface AccountRow {
  id: number;
  creationDate: Date;
  plan: 'free' | 'private';
  trialEndDate: Date | null;
  trialReminderDate: Date | null;
}

export interface UserRow {
  id: number;
  accountId: number;
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
  id: string;
  userId: number;
  name: string;
  scopes: Scope[];
  tokenHash: string;
  creationDate: Date;
  lastUseDate: Date | null;
}

export interface ApiRow {
  id: string;
  accountId: number;
  userId: number;
  owner?: UserRow;
  nickname: string;
  name: string;
  type: ApiType;
  revision: number;
  description: string | null;
  version: string | null;
  specFormat: SpecFormat | null;
  breakingChangePolicy: BreakingChangePolicy;
  creationDate: Date;
  updateDate: Date;
}

export interface OutboxRow {
  id: string;
  accountId: number;
  name: string;
  payload: string;
  occurredAt: Date;
  dispatchedAt: Date | null;
}

export interface ApiSpecRow {
  apiId: string;
  format: 'yaml' | 'json';
  source: string;
  document: string;
  updateDate: Date;
}

export interface ApiDerivedRow {
  apiId: string;
  kind: string;
  position: number;
  data: string;
}

export interface ApiReleaseRow {
  id: string;
  apiId: string;
  accountId: number;
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
  apiId: string;
  revision: number;
  creationDate: Date;
  userId: number;
  specFormat: SpecFormat;
  syntax: 'yaml' | 'json';
  /** JSON arrays of the keys of the texts' chunks (spec_chunks); null for the current spec, which is in api_specs. */
  sourceChunks: string | null;
  documentChunks: string | null;
  /** JSON of StoredChanges; null for an API's first spec. */
  changes: string | null;
  reason: string | null;
}

export interface SpecChunkRow {
  apiId: string;
  key: string;
  /** Deflated UTF-8. */
  data: Buffer;
}

export interface WebhookRow {
  id: string;
  accountId: number;
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
  id: string;
  webhookId: string;
  accountId: number;
  eventId: string;
  event: string;
  dispatchKey: string | null;
  payload: string;
  state: 'pending' | 'succeeded' | 'failed';
  attempts: { date: string; status: number | null; durationMs: number; error: string | null; responseBody: string }[];
  nextAttemptDate: Date | null;
  leaseUntil: Date | null;
  creationDate: Date;
}

export interface PageRow {
  id: string;
  apiId: string;
  accountId: number;
  title: string;
  slug: string;
  body: string;
  position: number;
  creationDate: Date;
  updateDate: Date;
}

export interface ShareRow {
  id: string;
  apiId: string;
  accountId: number;
  userId: number;
  role: 'viewer' | 'editor';
  creationDate: Date;
  updateDate: Date;
  grantee?: UserRow;
}

export interface EmailVerificationRow {
  userId: number;
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
  creationDate: Date;
}

export interface GrantRow {
  id: string;
  clientId: string;
  userId: number;
  scope: string;
  offline: boolean;
  creationDate: Date;
  revocationDate: Date | null;
}

export interface CodeRow {
  codeHash: string;
  grantId: string;
  clientId: string;
  userId: number;
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
  grantId: string;
  clientId: string;
  userId: number;
  scope: string;
  creationDate: Date;
  rotationDate: Date | null;
}

export interface SessionRow {
  idHash: string;
  userId: number;
  authTime: Date;
  expirationDate: Date;
}

export interface ConsentRow {
  userId: number;
  clientId: string;
  scope: string;
  date: Date;
}

export interface SigningKeyRow {
  kid: string;
  privateKeyPem: string;
  publicJwk: Record<string, string>;
  certificatePem: string;
  creationDate: Date;
  activationDate: Date;
}
