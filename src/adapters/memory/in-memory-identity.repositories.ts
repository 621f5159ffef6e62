import type { GrantId } from '../../domain/identity/grant.js';
import type { UserId } from '../../domain/account/account.js';
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
import type { StateSource } from './in-memory-state.js';
import type { DeviceAuthorization } from '../../domain/identity/device-authorization.js';

export class InMemoryOAuthClientRepository implements OAuthClientRepository {
  constructor(private readonly state: StateSource) {}
  async get(id: string): Promise<OAuthClient | undefined> {
    const row = this.state().oauthClients.get(id);
    return row ? OAuthClient.rehydrate(row) : undefined;
  }
  async list(): Promise<OAuthClient[]> {
    return [...this.state().oauthClients.values()].sort((a, b) => a.creationDate.getTime() - b.creationDate.getTime()).map((row) => OAuthClient.rehydrate(row));
  }
  async add(client: OAuthClient): Promise<void> {
    this.state().oauthClients.set(client.id, client.snapshot());
  }
  async save(client: OAuthClient): Promise<void> {
    if (this.state().oauthClients.has(client.id)) this.state().oauthClients.set(client.id, client.snapshot());
  }
  /** As the database's foreign keys do: the client's grants (with their codes and refresh tokens) and consents go with it. */
  async delete(id: string): Promise<boolean> {
    const s = this.state();
    if (!s.oauthClients.delete(id)) return false;
    for (const [key, grant] of s.grants) if (grant.clientId === id) s.grants.delete(key);
    for (const [key, code] of s.codes) if (code.clientId === id) s.codes.delete(key);
    for (const [key, token] of s.refreshTokens) if (token.clientId === id) s.refreshTokens.delete(key);
    for (const [key, consent] of s.consents) if (consent.clientId === id) s.consents.delete(key);
    for (const [key, device] of s.deviceCodes) if (device.clientId === id) s.deviceCodes.delete(key);
    return true;
  }
}

export class InMemoryGrantRepository implements GrantRepository {
  constructor(private readonly state: StateSource) {}
  async add(grant: Grant): Promise<void> {
    this.state().grants.set(grant.id, grant);
  }
  async get(id: GrantId): Promise<Grant | undefined> {
    return this.state().grants.get(id);
  }
  async revoke(id: GrantId, now: Date): Promise<void> {
    const grant = this.state().grants.get(id);
    if (grant && grant.revocationDate === null) this.state().grants.set(id, { ...grant, revocationDate: now });
  }
  async revokeAllOfUser(userId: UserId, now: Date): Promise<void> {
    for (const grant of this.state().grants.values()) if (grant.userId === userId) await this.revoke(grant.id, now);
  }
  async revokeAllOfClient(clientId: string, now: Date, userId?: UserId): Promise<void> {
    for (const grant of this.state().grants.values()) if (grant.clientId === clientId && (userId === undefined || grant.userId === userId)) await this.revoke(grant.id, now);
  }
}

export class InMemoryAuthorizationCodeRepository implements AuthorizationCodeRepository {
  constructor(private readonly state: StateSource) {}
  async add(code: AuthorizationCode): Promise<void> {
    this.state().codes.set(code.codeHash, code);
  }
  async get(codeHash: string): Promise<AuthorizationCode | undefined> {
    return this.state().codes.get(codeHash);
  }
  async consume(codeHash: string, now: Date): Promise<boolean> {
    const code = this.state().codes.get(codeHash);
    if (!code || code.consumptionDate !== null) return false;
    this.state().codes.set(codeHash, { ...code, consumptionDate: now });
    return true;
  }
}

export class InMemoryRefreshTokenRepository implements RefreshTokenRepository {
  constructor(private readonly state: StateSource) {}
  async add(token: RefreshToken): Promise<void> {
    this.state().refreshTokens.set(token.tokenHash, token);
  }
  async get(tokenHash: string): Promise<RefreshToken | undefined> {
    return this.state().refreshTokens.get(tokenHash);
  }
  async rotate(tokenHash: string, now: Date): Promise<boolean> {
    const token = this.state().refreshTokens.get(tokenHash);
    if (!token || token.rotationDate !== null) return false;
    this.state().refreshTokens.set(tokenHash, { ...token, rotationDate: now });
    return true;
  }
}

export class InMemorySessionRepository implements SessionRepository {
  constructor(private readonly state: StateSource) {}
  async add(session: Session): Promise<void> {
    this.state().sessions.set(session.idHash, session);
  }
  async get(idHash: string): Promise<Session | undefined> {
    return this.state().sessions.get(idHash);
  }
  async delete(idHash: string): Promise<void> {
    this.state().sessions.delete(idHash);
  }
  async deleteAllOfUser(userId: UserId): Promise<void> {
    const sessions = this.state().sessions;
    for (const [key, session] of sessions) if (session.userId === userId) sessions.delete(key);
  }
}

export class InMemoryConsentRepository implements ConsentRepository {
  constructor(private readonly state: StateSource) {}
  async get(userId: UserId, clientId: string): Promise<Consent | undefined> {
    return this.state().consents.get(`${userId} ${clientId}`);
  }
  async listOfUser(userId: UserId): Promise<Consent[]> {
    return [...this.state().consents.values()].filter((c) => c.userId === userId).sort((a, b) => a.creationDate.getTime() - b.creationDate.getTime() || (a.clientId < b.clientId ? -1 : 1));
  }
  async save(consent: Consent): Promise<void> {
    this.state().consents.set(`${consent.userId} ${consent.clientId}`, consent);
  }
  async touch(userId: UserId, clientId: string, now: Date): Promise<void> {
    const consent = await this.get(userId, clientId);
    if (consent) await this.save({ ...consent, lastUseDate: now });
  }
  async delete(clientId: string, userId?: UserId): Promise<boolean> {
    const consents = this.state().consents;
    let deleted = false;
    for (const [key, consent] of consents) {
      if (consent.clientId === clientId && (userId === undefined || consent.userId === userId)) deleted = consents.delete(key) || deleted;
    }
    return deleted;
  }
}

export class InMemorySigningKeyRepository implements SigningKeyRepository {
  constructor(private readonly state: StateSource) {}
  async list(): Promise<StoredSigningKey[]> {
    return [...this.state().signingKeys].sort((a, b) => b.activationDate.getTime() - a.activationDate.getTime() || b.creationDate.getTime() - a.creationDate.getTime());
  }
  async add(key: StoredSigningKey): Promise<void> {
    this.state().signingKeys.push(key);
  }
}

export class InMemoryDeviceAuthorizationRepository implements DeviceAuthorizationRepository {
  constructor(private readonly state: StateSource) {}
  async add(authorization: DeviceAuthorization): Promise<void> {
    this.state().deviceCodes.set(authorization.deviceCodeHash, authorization);
  }
  async getByDeviceCode(deviceCodeHash: string): Promise<DeviceAuthorization | undefined> {
    return this.state().deviceCodes.get(deviceCodeHash);
  }
  async getByUserCode(userCodeHash: string): Promise<DeviceAuthorization | undefined> {
    return [...this.state().deviceCodes.values()].find((a) => a.userCodeHash === userCodeHash);
  }
  async recordPoll(deviceCodeHash: string, at: Date, intervalS: number): Promise<void> {
    const found = this.state().deviceCodes.get(deviceCodeHash);
    if (found) this.state().deviceCodes.set(deviceCodeHash, { ...found, lastPollDate: at, intervalS });
  }
  async decide(deviceCodeHash: string, decision: { readonly status: 'approved'; readonly userId: UserId; readonly grantId: GrantId } | { readonly status: 'denied' }): Promise<boolean> {
    const found = this.state().deviceCodes.get(deviceCodeHash);
    if (!found || found.status !== 'pending') return false;
    this.state().deviceCodes.set(deviceCodeHash, decision.status === 'approved' ? { ...found, ...decision } : { ...found, status: 'denied' });
    return true;
  }
  async consume(deviceCodeHash: string): Promise<boolean> {
    const found = this.state().deviceCodes.get(deviceCodeHash);
    if (!found || found.status !== 'approved') return false;
    this.state().deviceCodes.set(deviceCodeHash, { ...found, status: 'consumed' });
    return true;
  }
}

export class InMemoryInitialAccessTokenRepository implements InitialAccessTokenRepository {
  constructor(private readonly state: StateSource) {}
  async add(token: InitialAccessToken): Promise<void> {
    this.state().initialAccessTokens.set(token.tokenHash, { ...token, useDate: null });
  }
  async consume(tokenHash: string, now: Date): Promise<boolean> {
    const found = this.state().initialAccessTokens.get(tokenHash);
    if (!found || found.useDate !== null || found.expirationDate.getTime() <= now.getTime()) return false;
    this.state().initialAccessTokens.set(tokenHash, { ...found, useDate: now });
    return true;
  }
}
