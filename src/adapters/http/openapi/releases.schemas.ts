import type { JsonSchema } from './openapi.types.js';
import { str, object, closed, listOf, uuid, timestamp, VERSION_LABEL } from './schemas.js';

/** Releases of an API. */
export const RELEASES_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Release: object({
    id: uuid('UUIDv7'),
    version: VERSION_LABEL,
    status: str({ enum: ['released', 'deprecated', 'endOfLife'] }),
    releaseDate: timestamp('When it was released; transitions do not change it.'),
    api: object({ id: uuid('The API.') }),
  }),
  ReleaseList: listOf('Release', 'Releases by release date.'),
  CreateRelease: closed({ version: VERSION_LABEL }, ['version']),
};
