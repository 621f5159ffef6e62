import { SPEC_FORMATS } from '../../../domain/spec/spec-document.js';
import type { JsonSchema } from './openapi.types.js';
import { ref, str, int, nullable, object, closed, listOf, uuid, timestamp, NICKNAME, API_TYPE, BREAKING_POLICY, REMOVAL_AFTER_SUNSET } from './schemas.js';

/** The APIs of an account: the record, its list, and the bodies that create and change one. */
export const APIS_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Api: object(
    {
      id: uuid('UUIDv7'),
      revision: int({ minimum: 1, description: '1 on creation, +1 on every change of the API or its spec; also the `ETag`.' }),
      user: { ...ref('Actor'), description: 'The user who created it.' },
      nickname: str(NICKNAME),
      name: str({ description: '1-200 characters; `info.title` of the spec once there is one.' }),
      type: API_TYPE,
      description: nullable(str({ description: '`info.description` of the spec.' })),
      version: nullable(str({ description: '`info.version` of the spec.' })),
      specFormat: nullable(str({ enum: [...SPEC_FORMATS], description: 'The format of the current spec; `null` while the API has none. A later spec may be of another format.' })),
      breakingChangePolicy: BREAKING_POLICY,
      allowRemovalAfterSunset: REMOVAL_AFTER_SUNSET,
      creationDate: timestamp('When it was created.'),
      updateDate: timestamp('When it last changed.'),
    },
    undefined,
    { description: 'An API of an account.' },
  ),
  ApiList: listOf('Api', 'APIs in creation order.'),
  CreateApi: closed({ name: str({ minLength: 1, maxLength: 200 }), nickname: str(NICKNAME), type: API_TYPE }, ['name', 'nickname']),
  UpdateApi: closed({ name: str({ minLength: 1, maxLength: 200 }), nickname: str(NICKNAME), type: API_TYPE, breakingChangePolicy: BREAKING_POLICY, allowRemovalAfterSunset: REMOVAL_AFTER_SUNSET }),
};
