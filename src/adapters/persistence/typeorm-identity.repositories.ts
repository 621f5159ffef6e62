import type { GrantId } from '../../domain/identity/grant.js';
import type { UserId } from '../../domain/account/account.js';
import { IsNull, MoreThan } from 'typeorm';
import type {
  AuthorizationCodeRepository,
  DeviceAuthorizationRepository,
  InitialAccessToken,
  InitialAccessTokenRepository,
  ConsentRepository,
  GrantRepository,
  OAuthClientRepository,
  RefreshTokenRepository,
  SessionRepository,
  SigningKeyRepository,
  StoredSigningKey,
} from '../../application/ports/identity-repositories.port.js';
import type { AuthorizationCode, Consent, Grant, RefreshToken, Session } from '../../domain/identity/grant.js';
import { OAuthClient } from '../../domain/identity/oauth-client.js';
import type { CodeRow, ConsentRow, DeviceCodeRow, GrantRow, OAuthClientRow, RefreshTokenRow } from './rows.js';
import type { DeviceAuthorization } from '../../domain/identity/device-authorization.js';
import type { Schemas } from './schema.js';
import { isStorableText, type Run } from './typeorm-database.js';
import type { SecretBox } from './secret-box.js';
import { dateOf, dialectOf, forDialect, nullableDateOf, storedKey, tableOf } from './raw-sql.js';

export class TypeOrmOAuthClientRepository implements OAuthClientRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
  ) {}

  get(id: string): Promise<OAuthClient | undefined> {
    if (!isStorableText(id)) return Promise.resolve(undefined);
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.oauthClients).findOneBy({ id });
      return row ? OAuthClient.rehydrate(row) : undefined;
    });
  }

  list(): Promise<OAuthClient[]> {
    return this.run(async (m) => {
      const rows = await m.getRepository(this.s.oauthClients).find({ order: { creationDate: 'ASC', id: 'ASC' } });
      return rows.map((row) => OAuthClient.rehydrate(row));
    });
  }

  add(client: OAuthClient): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.oauthClients).insert(clientRowOf(client));
    });
  }

  save(client: OAuthClient): Promise<void> {
    return this.run(async (m) => {
      const { id, ...fields } = clientRowOf(client);
      await m.getRepository(this.s.oauthClients).update({ id }, fields);
    });
  }

  /** The foreign keys take the client's grants (with their codes and refresh tokens) and consents with it. */
  delete(id: string): Promise<boolean> {
    if (!isStorableText(id)) return Promise.resolve(false);
    return this.run(async (m) => ((await m.getRepository(this.s.oauthClients).delete({ id })).affected ?? 0) > 0);
  }
}

function clientRowOf(client: OAuthClient): OAuthClientRow {
  const state = client.snapshot();
  return { ...state, redirectUris: [...state.redirectUris], postLogoutRedirectUris: [...state.postLogoutRedirectUris] };
}

const grantFromRow = (row: GrantRow): Grant => ({ ...row, userId: storedKey(row.userId), offline: Boolean(row.offline) });

export class TypeOrmGrantRepository implements GrantRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
  ) {}

  add(grant: Grant): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.grants).insert(grant);
    });
  }

  async get(id: GrantId): Promise<Grant | undefined> {
    return this.run(async (m) => {
      // Plain SQL: read on every tokeninfo and userinfo request (docs/performance.md).
      const sql =
        'SELECT id, client_id AS "clientId", user_id AS "userId", scope, offline, creation_date AS "creationDate", revocation_date AS "revocationDate" ' +
        `FROM ${tableOf(m, this.s.grants)} WHERE id = ?`;
      type Read = Omit<GrantRow, 'creationDate' | 'revocationDate'> & { creationDate: Date | string; revocationDate: Date | string | null };
      const [row] = await m.query<Read[]>(forDialect(dialectOf(m), sql), [id]);
      return row && grantFromRow({ ...row, creationDate: dateOf(row.creationDate), revocationDate: nullableDateOf(row.revocationDate) });
    });
  }

  revoke(id: GrantId, now: Date): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.grants).update({ id, revocationDate: IsNull() }, { revocationDate: now });
    });
  }

  revokeAllOfUser(userId: UserId, now: Date): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.grants).update({ userId, revocationDate: IsNull() }, { revocationDate: now });
    });
  }

  revokeAllOfClient(clientId: string, now: Date, userId?: UserId): Promise<void> {
    if (!isStorableText(clientId)) return Promise.resolve();
    return this.run(async (m) => {
      await m.getRepository(this.s.grants).update({ clientId, ...(userId === undefined ? {} : { userId }), revocationDate: IsNull() }, { revocationDate: now });
    });
  }
}

const codeFromRow = (row: CodeRow): AuthorizationCode => ({ ...row, userId: storedKey(row.userId), offline: Boolean(row.offline) });

export class TypeOrmAuthorizationCodeRepository implements AuthorizationCodeRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
  ) {}

  add(code: AuthorizationCode): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.codes).insert(code);
    });
  }

  get(codeHash: string): Promise<AuthorizationCode | undefined> {
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.codes).findOneBy({ codeHash });
      return row ? codeFromRow(row) : undefined;
    });
  }

  consume(codeHash: string, now: Date): Promise<boolean> {
    return this.run(async (m) => {
      const updated = await m.getRepository(this.s.codes).update({ codeHash, consumptionDate: IsNull() }, { consumptionDate: now });
      return updated.affected === 1;
    });
  }
}

const refreshFromRow = (row: RefreshTokenRow): RefreshToken => ({ ...row, userId: storedKey(row.userId) });

export class TypeOrmRefreshTokenRepository implements RefreshTokenRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
  ) {}

  add(token: RefreshToken): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.refreshTokens).insert(token);
    });
  }

  get(tokenHash: string): Promise<RefreshToken | undefined> {
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.refreshTokens).findOneBy({ tokenHash });
      return row ? refreshFromRow(row) : undefined;
    });
  }

  rotate(tokenHash: string, now: Date): Promise<boolean> {
    return this.run(async (m) => {
      const updated = await m.getRepository(this.s.refreshTokens).update({ tokenHash, rotationDate: IsNull() }, { rotationDate: now });
      return updated.affected === 1;
    });
  }
}

export class TypeOrmSessionRepository implements SessionRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
  ) {}

  add(session: Session): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.sessions).insert(session);
    });
  }

  get(idHash: string): Promise<Session | undefined> {
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.sessions).findOneBy({ idHash });
      return row ? { ...row, userId: storedKey(row.userId) } : undefined;
    });
  }

  delete(idHash: string): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.sessions).delete({ idHash });
    });
  }

  deleteAllOfUser(userId: UserId): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.sessions).delete({ userId });
    });
  }
}

export class TypeOrmConsentRepository implements ConsentRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
  ) {}

  get(userId: UserId, clientId: string): Promise<Consent | undefined> {
    if (!isStorableText(clientId)) return Promise.resolve(undefined);
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.consents).findOneBy({ userId, clientId });
      return row ? consentFromRow(row) : undefined;
    });
  }

  listOfUser(userId: UserId): Promise<Consent[]> {
    return this.run(async (m) => {
      const rows = await m.getRepository(this.s.consents).find({ where: { userId }, order: { creationDate: 'ASC', clientId: 'ASC' } });
      return rows.map(consentFromRow);
    });
  }

  save(consent: Consent): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.consents).upsert(consent, ['userId', 'clientId']);
    });
  }

  touch(userId: UserId, clientId: string, now: Date): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.consents).update({ userId, clientId }, { lastUseDate: now });
    });
  }

  delete(clientId: string, userId?: UserId): Promise<boolean> {
    if (!isStorableText(clientId)) return Promise.resolve(false);
    return this.run(async (m) => ((await m.getRepository(this.s.consents).delete({ clientId, ...(userId === undefined ? {} : { userId }) })).affected ?? 0) > 0);
  }
}

const consentFromRow = (row: ConsentRow): Consent => ({ ...row, userId: storedKey(row.userId) });

/** The private key's column sealed by the operator key (secret-box.ts): never stored in clear. */
export const signingKeyContext = (kid: string): string => `signing_keys.private_key_pem:${kid}`;

export class TypeOrmSigningKeyRepository implements SigningKeyRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
    private readonly secrets: SecretBox,
  ) {}

  list(): Promise<StoredSigningKey[]> {
    return this.run(async (m) => {
      const rows = await m.getRepository(this.s.signingKeys).find({ order: { activationDate: 'DESC', creationDate: 'DESC' } });
      return rows.map((row) => ({ ...row, privateKeyPem: this.secrets.open(row.privateKeyPem, signingKeyContext(row.kid)) }));
    });
  }

  add(key: StoredSigningKey): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.signingKeys).insert({ ...key, privateKeyPem: this.secrets.seal(key.privateKeyPem, signingKeyContext(key.kid)), publicJwk: { ...key.publicJwk } });
    });
  }
}

const deviceFromRow = (row: DeviceCodeRow): DeviceAuthorization => ({ ...row, userId: row.userId === null ? null : storedKey(row.userId), intervalS: Number(row.intervalS) });

export class TypeOrmDeviceAuthorizationRepository implements DeviceAuthorizationRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
  ) {}

  add(authorization: DeviceAuthorization): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.deviceCodes).insert(authorization);
    });
  }

  getByDeviceCode(deviceCodeHash: string): Promise<DeviceAuthorization | undefined> {
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.deviceCodes).findOneBy({ deviceCodeHash });
      return row ? deviceFromRow(row) : undefined;
    });
  }

  getByUserCode(userCodeHash: string): Promise<DeviceAuthorization | undefined> {
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.deviceCodes).findOneBy({ userCodeHash });
      return row ? deviceFromRow(row) : undefined;
    });
  }

  recordPoll(deviceCodeHash: string, at: Date, intervalS: number): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.deviceCodes).update({ deviceCodeHash }, { lastPollDate: at, intervalS });
    });
  }

  decide(deviceCodeHash: string, decision: { readonly status: 'approved'; readonly userId: UserId; readonly grantId: GrantId } | { readonly status: 'denied' }): Promise<boolean> {
    return this.run(async (m) => {
      const fields = decision.status === 'approved' ? { status: decision.status, userId: decision.userId, grantId: decision.grantId } : { status: decision.status };
      const result = await m.getRepository(this.s.deviceCodes).update({ deviceCodeHash, status: 'pending' }, fields);
      return (result.affected ?? 0) === 1;
    });
  }

  consume(deviceCodeHash: string): Promise<boolean> {
    return this.run(async (m) => {
      const result = await m.getRepository(this.s.deviceCodes).update({ deviceCodeHash, status: 'approved' }, { status: 'consumed' });
      return (result.affected ?? 0) === 1;
    });
  }
}

export class TypeOrmInitialAccessTokenRepository implements InitialAccessTokenRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
  ) {}

  add(token: InitialAccessToken): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.initialAccessTokens).insert({ ...token, useDate: null });
    });
  }

  consume(tokenHash: string, now: Date): Promise<boolean> {
    return this.run(async (m) => {
      const result = await m.getRepository(this.s.initialAccessTokens).update({ tokenHash, useDate: IsNull(), expirationDate: MoreThan(now) }, { useDate: now });
      return (result.affected ?? 0) === 1;
    });
  }
}
