import { APIS_SCHEMAS } from './apis.schemas.js';
import { CHANGES_SCHEMAS } from './changes.schemas.js';
import { DERIVED_SCHEMAS } from './derived.schemas.js';
import { IDENTITY_SCHEMAS } from './identity.schemas.js';
import type { JsonSchema } from './openapi.types.js';
import { PAGES_SCHEMAS } from './pages.schemas.js';
import { RELEASES_SCHEMAS } from './releases.schemas.js';
import { SHARED_SCHEMAS } from './schemas.js';
import { SERVICE_SCHEMAS } from './service.schemas.js';
import { SHARES_SCHEMAS } from './shares.schemas.js';
import { SPECS_SCHEMAS } from './specs.schemas.js';
import { USERS_SCHEMAS } from './users.schemas.js';
import { WEBHOOKS_SCHEMAS } from './webhooks.schemas.js';

function gathered(...features: readonly Readonly<Record<string, JsonSchema>>[]): Readonly<Record<string, JsonSchema>> {
  const all: Record<string, JsonSchema> = {};
  for (const schemas of features) {
    for (const [name, schema] of Object.entries(schemas)) {
      if (name in all) throw new Error(`Two features define the schema ${name}`);
      all[name] = schema;
    }
  }
  return all;
}

/**
 * `components.schemas` of the description, and what request validation resolves `$ref`s against:
 * every feature's named schemas. A route may also declare a schema inline, where no other route
 * shares it.
 */
export const COMPONENT_SCHEMAS = gathered(
  SHARED_SCHEMAS,
  APIS_SCHEMAS,
  SPECS_SCHEMAS,
  CHANGES_SCHEMAS,
  DERIVED_SCHEMAS,
  RELEASES_SCHEMAS,
  PAGES_SCHEMAS,
  SHARES_SCHEMAS,
  WEBHOOKS_SCHEMAS,
  USERS_SCHEMAS,
  SERVICE_SCHEMAS,
  IDENTITY_SCHEMAS,
);
