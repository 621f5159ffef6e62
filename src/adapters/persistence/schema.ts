import { EntitySchema, type EntitySchemaColumnOptions } from 'typeorm';
import { dialectTypes, jsonTransformer, timestampTransformer, type Dialect } from './dialect.js';
import type { AccountRow, UserRow, ApiTokenRow, ApiRow, OutboxRow, ApiSpecRow, ApiDerivedRow, ApiReleaseRow, ApiRevisionRow, SpecChunkRow, WebhookRow, DeliveryRow, WebhookPayloadRow, PageRow, ShareRow, EmailVerificationRow, OAuthClientRow, GrantRow, CodeRow, RefreshTokenRow, SessionRow, ConsentRow, SigningKeyRow, DeviceCodeRow, InitialAccessTokenRow } from './rows.js';

/** The TypeORM entity schemas of every table, for a dialect: the columns of the rows in rows.ts. */
export interface Schemas {
  readonly accounts: EntitySchema<AccountRow>;
  readonly users: EntitySchema<UserRow>;
  readonly apiTokens: EntitySchema<ApiTokenRow>;
  readonly apis: EntitySchema<ApiRow>;
  readonly outbox: EntitySchema<OutboxRow>;
  readonly specs: EntitySchema<ApiSpecRow>;
  readonly derived: EntitySchema<ApiDerivedRow>;
  readonly releases: EntitySchema<ApiReleaseRow>;
  readonly revisions: EntitySchema<ApiRevisionRow>;
  readonly chunks: EntitySchema<SpecChunkRow>;
  readonly webhooks: EntitySchema<WebhookRow>;
  readonly deliveries: EntitySchema<DeliveryRow>;
  readonly payloads: EntitySchema<WebhookPayloadRow>;
  readonly pages: EntitySchema<PageRow>;
  readonly shares: EntitySchema<ShareRow>;
  readonly verifications: EntitySchema<EmailVerificationRow>;
  readonly oauthClients: EntitySchema<OAuthClientRow>;
  readonly grants: EntitySchema<GrantRow>;
  readonly codes: EntitySchema<CodeRow>;
  readonly refreshTokens: EntitySchema<RefreshTokenRow>;
  readonly sessions: EntitySchema<SessionRow>;
  readonly consents: EntitySchema<ConsentRow>;
  readonly deviceCodes: EntitySchema<DeviceCodeRow>;
  readonly initialAccessTokens: EntitySchema<InitialAccessTokenRow>;
  readonly signingKeys: EntitySchema<SigningKeyRow>;
}

export function schemas(dialect: Dialect): Schemas {
  const t = dialectTypes(dialect);
  const uuid = (name: string, primary = false): EntitySchemaColumnOptions => ({
    name,
    type: t.uuid,
    ...(t.uuidLength ? { length: t.uuidLength } : {}),
    primary,
  });
  const timestamp = (name: string, nullable = false): EntitySchemaColumnOptions => ({
    name,
    type: t.timestamp,
    ...(t.timestampLength ? { length: t.timestampLength } : {}),
    nullable,
    transformer: timestampTransformer,
  });
  const text = (name: string, nullable = false): EntitySchemaColumnOptions => ({ name, type: 'text', nullable });
  const int = (name: string): EntitySchemaColumnOptions => ({ name, type: 'integer' });

  const accounts = new EntitySchema<AccountRow>({
    name: 'Account',
    tableName: 'accounts',
    columns: {
      id: { name: 'id', type: 'integer', primary: true, generated: 'increment' },
      creationDate: timestamp('creation_date'),
      plan: { name: 'plan', type: 'text' },
      trialEndDate: timestamp('trial_end_date', true),
      trialReminderDate: timestamp('trial_reminder_date', true),
    },
  });
  const users = new EntitySchema<UserRow>({
    name: 'User',
    tableName: 'users',
    columns: {
      id: { name: 'id', type: 'integer', primary: true, generated: 'increment' },
      accountId: int('account_id'),
      email: text('email'),
      emailVerified: { name: 'email_verified', type: 'boolean' },
      passwordHash: text('password_hash'),
      nickname: text('nickname'),
      name: text('name', true),
      givenName: text('given_name', true),
      familyName: text('family_name', true),
      picture: text('picture', true),
      locale: text('locale', true),
      creationDate: timestamp('creation_date'),
    },
  });
  const apiTokens = new EntitySchema<ApiTokenRow>({
    name: 'ApiToken',
    tableName: 'api_tokens',
    columns: {
      id: uuid('id', true),
      userId: int('user_id'),
      name: text('name'),
      scopes: { ...text('scopes'), transformer: jsonTransformer },
      tokenHash: text('token_hash'),
      creationDate: timestamp('creation_date'),
      lastUseDate: timestamp('last_use_date', true),
    },
  });
  const apis = new EntitySchema<ApiRow>({
    name: 'Api',
    tableName: 'apis',
    columns: {
      id: uuid('id', true),
      accountId: int('account_id'),
      userId: int('user_id'),
      nickname: text('nickname'),
      name: text('name'),
      type: text('type'),
      revision: int('revision'),
      description: text('description', true),
      version: text('version', true),
      specFormat: text('spec_format', true),
      breakingChangePolicy: text('breaking_change_policy'),
      allowRemovalAfterSunset: { name: 'allow_removal_after_sunset', type: 'boolean' },
      creationDate: timestamp('creation_date'),
      updateDate: timestamp('update_date'),
    },
    relations: {
      owner: { type: 'many-to-one', target: 'User', joinColumn: { name: 'user_id' }, createForeignKeyConstraints: false },
    },
  });
  const outbox = new EntitySchema<OutboxRow>({
    name: 'OutboxEvent',
    tableName: 'outbox_events',
    columns: {
      id: uuid('id', true),
      accountId: int('account_id'),
      name: text('name'),
      payload: text('payload'),
      occurredAt: timestamp('occurred_at'),
      dispatchedAt: timestamp('dispatched_at', true),
    },
  });
  const specs = new EntitySchema<ApiSpecRow>({
    name: 'ApiSpec',
    tableName: 'api_specs',
    columns: {
      apiId: uuid('api_id', true),
      format: text('format'),
      source: text('source'),
      document: text('document'),
      updateDate: timestamp('update_date'),
    },
  });
  const derived = new EntitySchema<ApiDerivedRow>({
    name: 'ApiDerived',
    tableName: 'api_derived',
    columns: {
      apiId: uuid('api_id', true),
      kind: { ...text('kind'), primary: true },
      position: { ...int('position'), primary: true },
      data: text('data'),
    },
  });
  const releases = new EntitySchema<ApiReleaseRow>({
    name: 'ApiRelease',
    tableName: 'api_releases',
    columns: {
      id: uuid('id', true),
      apiId: uuid('api_id'),
      accountId: int('account_id'),
      version: text('version'),
      status: text('status'),
      releaseDate: timestamp('release_date'),
      format: text('format'),
      source: text('source'),
      document: text('document'),
      revision: { ...int('revision'), nullable: true },
      changes: text('changes', true),
    },
  });
  const revisions = new EntitySchema<ApiRevisionRow>({
    name: 'ApiRevision',
    tableName: 'api_revisions',
    columns: {
      apiId: uuid('api_id', true),
      revision: { ...int('revision'), primary: true },
      creationDate: timestamp('creation_date'),
      userId: int('user_id'),
      specFormat: text('spec_format'),
      syntax: text('syntax'),
      sourceChunks: text('source_chunks', true),
      documentChunks: text('document_chunks', true),
      changes: text('changes', true),
      changesFrom: { ...int('changes_from'), nullable: true },
      reason: text('reason', true),
    },
  });
  const chunks = new EntitySchema<SpecChunkRow>({
    name: 'SpecChunk',
    tableName: 'spec_chunks',
    columns: {
      apiId: uuid('api_id', true),
      key: { ...text('key'), primary: true },
      data: { name: 'data', type: t.binary },
    },
  });
  const json = (name: string, nullable = false): EntitySchemaColumnOptions => ({ ...text(name, nullable), transformer: jsonTransformer });
  // `lease_until` and `lease_token` (migration 0022), the delivery lanes' claim of the webhook, are
  // not mapped: only the delivery repository's plain SQL reads and writes them, so saving the
  // aggregate (an upsert of its mapped columns) leaves a lane's lease alone.
  const webhooks = new EntitySchema<WebhookRow>({
    name: 'Webhook',
    tableName: 'webhooks',
    columns: {
      id: uuid('id', true),
      accountId: int('account_id'),
      targetUrl: text('target_url'),
      events: json('events'),
      secret: text('secret'),
      active: { name: 'active', type: 'boolean' },
      creationDate: timestamp('creation_date'),
      updateDate: timestamp('update_date'),
      lastResponse: json('last_response', true),
      failingSince: timestamp('failing_since', true),
      deactivationReason: text('deactivation_reason', true),
    },
  });
  const deliveries = new EntitySchema<DeliveryRow>({
    name: 'WebhookDelivery',
    tableName: 'webhook_deliveries',
    columns: {
      id: uuid('id', true),
      webhookId: uuid('webhook_id', true),
      accountId: int('account_id'),
      eventId: uuid('event_id'),
      event: text('event'),
      dispatchKey: { ...uuid('dispatch_key'), nullable: true },
      state: text('state'),
      attempts: json('attempts'),
      nextAttemptDate: timestamp('next_attempt_date', true),
      creationDate: timestamp('creation_date'),
    },
  });
  // Each event's body, once for all of its deliveries, which name it by `event_id` (migration 0024).
  const payloads = new EntitySchema<WebhookPayloadRow>({
    name: 'WebhookPayload',
    tableName: 'webhook_payloads',
    columns: {
      eventId: uuid('event_id', true),
      payload: text('payload'),
      creationDate: timestamp('creation_date'),
    },
  });
  const pages = new EntitySchema<PageRow>({
    name: 'ApiPage',
    tableName: 'api_pages',
    columns: {
      id: uuid('id', true),
      apiId: uuid('api_id'),
      accountId: int('account_id'),
      title: text('title'),
      slug: text('slug'),
      body: text('body'),
      position: int('position'),
      creationDate: timestamp('creation_date'),
      updateDate: timestamp('update_date'),
    },
  });
  const shares = new EntitySchema<ShareRow>({
    name: 'ApiShare',
    tableName: 'api_shares',
    columns: {
      id: uuid('id', true),
      apiId: uuid('api_id'),
      accountId: int('account_id'),
      userId: int('user_id'),
      role: text('role'),
      creationDate: timestamp('creation_date'),
      updateDate: timestamp('update_date'),
    },
    relations: {
      grantee: { type: 'many-to-one', target: 'User', joinColumn: { name: 'user_id' }, createForeignKeyConstraints: false },
    },
  });
  const verifications = new EntitySchema<EmailVerificationRow>({
    name: 'EmailVerification',
    tableName: 'email_verifications',
    columns: {
      userId: { name: 'user_id', type: 'integer', primary: true },
      email: text('email'),
      tokenHash: text('token_hash'),
      expirationDate: timestamp('expiration_date'),
      creationDate: timestamp('creation_date'),
    },
  });
  const textKey = (name: string): EntitySchemaColumnOptions => ({ name, type: 'text', primary: true });
  const bool = (name: string): EntitySchemaColumnOptions => ({ name, type: 'boolean' });
  const oauthClients = new EntitySchema<OAuthClientRow>({
    name: 'OAuthClient',
    tableName: 'oauth_clients',
    columns: {
      id: textKey('id'),
      name: text('name'),
      secretHash: text('secret_hash', true),
      redirectUris: json('redirect_uris'),
      postLogoutRedirectUris: json('post_logout_redirect_uris'),
      previousSecretHash: text('previous_secret_hash', true),
      previousSecretExpirationDate: timestamp('previous_secret_expiration_date', true),
      registration: json('registration', true),
      redirectUrisVerified: bool('redirect_uris_verified'),
      creationDate: timestamp('creation_date'),
    },
  });
  const grants = new EntitySchema<GrantRow>({
    name: 'OAuthGrant',
    tableName: 'oauth_grants',
    columns: {
      id: uuid('id', true),
      clientId: text('client_id'),
      userId: int('user_id'),
      scope: text('scope'),
      offline: bool('offline'),
      creationDate: timestamp('creation_date'),
      revocationDate: timestamp('revocation_date', true),
    },
  });
  const codes = new EntitySchema<CodeRow>({
    name: 'OAuthCode',
    tableName: 'oauth_codes',
    columns: {
      codeHash: textKey('code_hash'),
      grantId: uuid('grant_id'),
      clientId: text('client_id'),
      userId: int('user_id'),
      redirectUri: text('redirect_uri'),
      scope: text('scope'),
      codeChallenge: text('code_challenge', true),
      nonce: text('nonce', true),
      offline: bool('offline'),
      authTime: timestamp('auth_time'),
      expirationDate: timestamp('expiration_date'),
      consumptionDate: timestamp('consumption_date', true),
    },
  });
  const refreshTokens = new EntitySchema<RefreshTokenRow>({
    name: 'OAuthRefreshToken',
    tableName: 'oauth_refresh_tokens',
    columns: {
      tokenHash: textKey('token_hash'),
      grantId: uuid('grant_id'),
      clientId: text('client_id'),
      userId: int('user_id'),
      scope: text('scope'),
      creationDate: timestamp('creation_date'),
      rotationDate: timestamp('rotation_date', true),
    },
  });
  const sessions = new EntitySchema<SessionRow>({
    name: 'IdentitySession',
    tableName: 'identity_sessions',
    columns: { idHash: textKey('id_hash'), userId: int('user_id'), authTime: timestamp('auth_time'), expirationDate: timestamp('expiration_date') },
  });
  const consents = new EntitySchema<ConsentRow>({
    name: 'OAuthConsent',
    tableName: 'oauth_consents',
    columns: {
      userId: { ...int('user_id'), primary: true },
      clientId: textKey('client_id'),
      scope: text('scope'),
      date: timestamp('date'),
      creationDate: timestamp('creation_date'),
      lastUseDate: timestamp('last_use_date', true),
    },
  });
  const signingKeys = new EntitySchema<SigningKeyRow>({
    name: 'SigningKey',
    tableName: 'signing_keys',
    columns: {
      kid: textKey('kid'),
      privateKeyPem: text('private_key_pem'),
      publicJwk: json('public_jwk'),
      certificatePem: text('certificate_pem'),
      creationDate: timestamp('creation_date'),
      activationDate: timestamp('activation_date'),
    },
  });
  const deviceCodes = new EntitySchema<DeviceCodeRow>({
    name: 'OAuthDeviceCode',
    tableName: 'oauth_device_codes',
    columns: {
      deviceCodeHash: textKey('device_code_hash'),
      userCodeHash: { ...text('user_code_hash'), unique: true },
      clientId: text('client_id'),
      scope: text('scope'),
      status: text('status'),
      userId: { ...int('user_id'), nullable: true },
      grantId: { ...uuid('grant_id'), nullable: true },
      intervalS: int('interval_s'),
      lastPollDate: timestamp('last_poll_date', true),
      creationDate: timestamp('creation_date'),
      expirationDate: timestamp('expiration_date'),
    },
  });
  const initialAccessTokens = new EntitySchema<InitialAccessTokenRow>({
    name: 'OAuthInitialAccessToken',
    tableName: 'oauth_initial_access_tokens',
    columns: { tokenHash: textKey('token_hash'), creationDate: timestamp('creation_date'), expirationDate: timestamp('expiration_date'), useDate: timestamp('use_date', true) },
  });
  return { accounts, users, apiTokens, apis, outbox, specs, derived, releases, revisions, chunks, webhooks, deliveries, payloads, pages, shares, verifications, oauthClients, grants, codes, refreshTokens, sessions, consents, signingKeys, deviceCodes, initialAccessTokens };
}
