import type { GrantId } from '../../domain/identity/grant.js';
import type { UserId } from '../../domain/account/account.js';
import type {
  AuthorizationCodeRepository,
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

export class InMemoryOAuthClientRepository implements OAuthClientRepository {
  constructor(private readonly state: StateSource) {}
  async get(id: string): Promise<OAuthClient | undefined> {
    const row = this.state().oauthClients.get(id);
    return row ? OAuthClient.rehydrate(row) : undefined;
  }
  async add(client: OAuthClient): Promise<void> {
    this.state().oauthClients.set(client.id, client.snapshot());
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
  async save(consent: Consent): Promise<void> {
    this.state().consents.set(`${consent.userId} ${consent.clientId}`, consent);
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
