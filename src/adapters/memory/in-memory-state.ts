import type { InitialAccessToken } from '../../application/ports/identity-repositories.port.js';
import type { DeviceAuthorization } from '../../domain/identity/device-authorization.js';
import type { AccountId, UserId } from '../../domain/account/account.js';
import type { AccountState } from '../../domain/account/account.aggregate.js';
import type { StoredSpec } from '../../application/ports/spec-repository.port.js';
import type { ReleaseChanges } from '../../application/ports/release-repository.port.js';
import type { SpecRevisionEntry } from '../../application/ports/spec-repository.port.js';
import type { ApiState } from '../../domain/api/api.aggregate.js';
import type { EventPayload } from '../../domain/events/domain-event.js';
import type { ReleaseState } from '../../domain/release/release.aggregate.js';
import type { DerivedResources } from '../../domain/spec/derived-resources.js';
import type { ApiTokenState } from '../../domain/token/api-token.aggregate.js';
import type { UserState } from '../../domain/user/user.aggregate.js';
import type { DeliveryState } from '../../domain/webhook/delivery.aggregate.js';
import type { WebhookState } from '../../domain/webhook/webhook.aggregate.js';
import type { PageState } from '../../domain/page/page.aggregate.js';
import type { ShareState } from '../../domain/share/share.aggregate.js';
import type { EmailVerification } from '../../domain/user/email-verification.js';
import type { AuthorizationCode, Consent, Grant, RefreshToken, Session } from '../../domain/identity/grant.js';
import type { OAuthClientState } from '../../domain/identity/oauth-client.js';
import type { StoredSigningKey } from '../../application/ports/identity-repositories.port.js';

export interface StoredEvent {
  readonly id: string;
  readonly accountId: AccountId;
  readonly payload: EventPayload;
  readonly dispatchedAt: Date | null;
}

/** Everything the in-memory adapters keep; a transaction works on a copy and swaps it in on commit. */
export class InMemoryState {
  nextAccountId = 1;
  nextUserId = 1;
  accounts = new Map<AccountId, AccountState>();
  users = new Map<UserId, UserState>();
  tokens = new Map<string, ApiTokenState>();
  apis = new Map<string, ApiState>();
  specs = new Map<string, { readonly spec: StoredSpec; readonly derived: DerivedResources }>();
  releases = new Map<string, { readonly state: ReleaseState; readonly snapshot: StoredSpec; readonly revision: number | null; readonly changes: ReleaseChanges }>();
  /** By `${apiId} ${revision}`. */
  revisions = new Map<string, SpecRevisionEntry & { readonly apiId: string; readonly spec: StoredSpec; /** The revision its changes were recorded against. */ readonly changesFrom: number | null }>();
  outbox: StoredEvent[] = [];
  webhooks = new Map<string, WebhookState>();
  pages = new Map<string, PageState>();
  shares = new Map<string, ShareState>();
  /** By user id. */
  verifications = new Map<number, EmailVerification>();
  oauthClients = new Map<string, OAuthClientState>();
  grants = new Map<string, Grant>();
  codes = new Map<string, AuthorizationCode>();
  refreshTokens = new Map<string, RefreshToken>();
  sessions = new Map<string, Session>();
  /** By `${userId} ${clientId}`. */
  consents = new Map<string, Consent>();
  deviceCodes = new Map<string, DeviceAuthorization>();
  initialAccessTokens = new Map<string, InitialAccessToken & { readonly useDate: Date | null }>();
  signingKeys: StoredSigningKey[] = [];
  deliveries = new Map<string, { readonly state: DeliveryState; readonly dispatchKey: string | null }>();
  /** The delivery lanes' leases, by webhook id. */
  webhookLeases = new Map<string, { readonly until: Date; readonly token: string }>();

  /** Rows are immutable snapshots, so copying the collections is enough. */
  clone(): InMemoryState {
    const copy = new InMemoryState();
    copy.nextAccountId = this.nextAccountId;
    copy.nextUserId = this.nextUserId;
    copy.accounts = new Map(this.accounts);
    copy.users = new Map(this.users);
    copy.tokens = new Map(this.tokens);
    copy.apis = new Map(this.apis);
    copy.specs = new Map(this.specs);
    copy.releases = new Map(this.releases);
    copy.revisions = new Map(this.revisions);
    copy.outbox = [...this.outbox];
    copy.webhooks = new Map(this.webhooks);
    copy.pages = new Map(this.pages);
    copy.shares = new Map(this.shares);
    copy.verifications = new Map(this.verifications);
    copy.oauthClients = new Map(this.oauthClients);
    copy.grants = new Map(this.grants);
    copy.codes = new Map(this.codes);
    copy.refreshTokens = new Map(this.refreshTokens);
    copy.sessions = new Map(this.sessions);
    copy.consents = new Map(this.consents);
    copy.deviceCodes = new Map(this.deviceCodes);
    copy.initialAccessTokens = new Map(this.initialAccessTokens);
    copy.signingKeys = [...this.signingKeys];
    copy.deliveries = new Map(this.deliveries);
    copy.webhookLeases = new Map(this.webhookLeases);
    return copy;
  }
}

/** Where a repository finds its rows: the committed state, or a transaction's working copy. */
export type StateSource = () => InMemoryState;
