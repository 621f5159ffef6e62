import type { JsonSchema } from './openapi.types.js';
import { str, int, object, closed, listOf, uuid, timestamp } from './schemas.js';

/** Pages and guides of an API. */
export const PAGES_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Page: object({
    id: uuid('UUIDv7'),
    title: str(),
    slug: str({ pattern: '^[a-z0-9-]{1,64}$' }),
    body: str({ description: 'Markdown, exactly as written.' }),
    position: int({ minimum: 0, maximum: 1_000_000 }),
    creationDate: timestamp('When it was created.'),
    updateDate: timestamp('When it last changed.'),
  }),
  PageList: listOf('Page', 'Pages by position, ties by creation.'),
  CreatePage: closed(
    {
      title: str({ minLength: 1, maxLength: 200 }),
      slug: str({ pattern: '^[a-z0-9-]{1,64}$', description: 'Unique per API.' }),
      body: str({ description: 'Markdown of at most 1 MiB.' }),
      position: int({ minimum: 0, maximum: 1_000_000, description: 'A sort key; default: after the last page.' }),
    },
    ['title', 'slug', 'body'],
  ),
  UpdatePage: closed({
    title: str({ minLength: 1, maxLength: 200 }),
    slug: str({ pattern: '^[a-z0-9-]{1,64}$' }),
    body: str(),
    position: int({ minimum: 0, maximum: 1_000_000 }),
  }),
};
