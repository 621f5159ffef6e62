import type { JsonSchema } from './openapi.types.js';
import { ref, str, object, closed, listOf, uuid, timestamp } from './schemas.js';

const SHARE_ROLE = str({ enum: ['viewer', 'editor'] });

/** Shares of an API with users of other accounts. */
export const SHARES_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Share: object({
    id: uuid('UUIDv7'),
    email: str({ format: 'email', description: "The grantee's address as their user has it now." }),
    role: SHARE_ROLE,
    user: { ...ref('Actor'), description: 'The grantee.' },
    creationDate: timestamp('When it was created.'),
    updateDate: timestamp('When the role was last set.'),
  }),
  ShareList: listOf('Share', 'Shares in creation order.'),
  CreateShare: closed({ email: str({ format: 'email', maxLength: 254 }), role: SHARE_ROLE }, ['email', 'role']),
  UpdateShare: closed({ role: SHARE_ROLE }, ['role']),
};
