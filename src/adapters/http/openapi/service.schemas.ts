import type { JsonSchema } from './openapi.types.js';
import { str, object } from './schemas.js';

/** Health and readiness. */
export const SERVICE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Health: object({ status: str({ enum: ['ok', 'unavailable'] }) }),
  Readiness: object({ status: str({ enum: ['ready', 'unavailable', 'shutting_down'] }) }),
};
