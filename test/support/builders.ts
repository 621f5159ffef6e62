import { accountId, userId, uuid } from './ids.js';
import type { Principal } from '../../src/application/auth/principal.js';
import { Api, type ApiState } from '../../src/domain/api/api.aggregate.js';
import type { Scope } from '../../src/domain/token/scope.js';

const T0 = new Date('2026-11-22T10:15:00.000Z');

/** `anApi().named('Pets').build()`: a stored API with deterministic fields. */
export function anApi(): ApiBuilder {
  return new ApiBuilder({
    id: uuid('00000000-0000-7000-8000-0000000000a1'),
    accountId: accountId(1),
    owner: { id: userId(1), nickname: 'ada' },
    nickname: 'pets',
    name: 'Pets',
    type: 'private',
    revision: 1,
    description: null,
    version: null,
    specFormat: null,
    breakingChangePolicy: 'allow',
    allowRemovalAfterSunset: false,
    creationDate: T0,
    updateDate: T0,
  });
}

class ApiBuilder {
  constructor(private readonly state: ApiState) {}
  with(changes: Partial<ApiState>): ApiBuilder {
    return new ApiBuilder({ ...this.state, ...changes });
  }
  atRevision(revision: number): ApiBuilder {
    return this.with({ revision });
  }
  build(): Api {
    return Api.rehydrate(this.state);
  }
}

export function aPrincipal(overrides: Partial<Principal> = {}): Principal {
  return { userId: userId(1), accountId: accountId(1), nickname: 'ada', scopes: ['api'] as Scope[], ...overrides };
}
