import { SPEC_FORMATS } from '../../../domain/spec/spec-document.js';
import type { JsonSchema } from './openapi.types.js';
import { ref, str, int, bool, array, nullable, object, listOf, timestamp, VERSION_LABEL } from './schemas.js';

/** The spec history, what changed between two specs, and the changelog. */
export const CHANGES_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  SpecChanges: object({ breaking: bool('Any item is breaking.'), counts: ref('ChangeCounts'), items: array(ref('Change')), truncated: { type: 'boolean', enum: [true], description: 'Present when `items` holds only the first of the changes (`CHANGES_MAX_ITEMS`, default 10,000); `counts` counts them all.' }, }, ['breaking', 'counts', 'items']),
  ChangeCounts: object({ breaking: int({ minimum: 0 }), warning: int({ minimum: 0 }), info: int({ minimum: 0 }) }),
  Change: object(
    {
      rule: str({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', description: 'A stable rule id of the catalog in docs/changes.md.' }),
      oasdiffId: str({
        pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
        description: "The id of the rule of oasdiff's catalog that means the same change at the same place, for teams coming from oasdiff; absent where oasdiff has none (docs/changes.md lists both).",
      }),
      level: str({ enum: ['breaking', 'warning', 'info'] }),
      location: ref('ChangeLocation'),
      pointer: str({ description: 'A JSON pointer into the newer document (the older one for what was removed).' }),
      message: str({ description: 'One sentence.' }),
      alsoAt: array(ref('ChangeLocation'), {
        maxItems: 10,
        description: 'Where else the same change is reached (a schema that several operations use), at most 10 places; absent when nowhere else. A change is one item, at the first place it is reached.',
      }),
      afterSunset: {
        type: 'boolean',
        enum: [true],
        description: '`endpoint-removed` only, present when the operation was deprecated and its `x-sunset` day had come on the day it was removed (an update: today). Still breaking; an API with `allowRemovalAfterSunset` lets it through its policy.',
      },
    },
    ['rule', 'level', 'location', 'pointer', 'message'],
  ),
  ChangeLocation: object(
    {
      method: str(),
      path: str({ description: 'The path key as written (Swagger 2.0: without `basePath`).' }),
      parameter: str({ description: '`<in> <name>`, e.g. `query limit`.' }),
      status: str({ description: '`requestBody`, or the response status.' }),
      mediaType: str(),
      header: str({ description: 'A response header.' }),
      property: str({ description: 'Dotted; `[]` for array items, `{}` for map values, `[0]` for a tuple position, `(keyword)` for what an applicator holds (`(not)`, `(then)`, `(propertyNames)`...).' }),
      webhook: str({ description: 'An OpenAPI 3.1 webhook, by name (with `method`).' }),
      callback: str({ description: 'A callback of the operation: `<name> <METHOD> <expression>`.' }),
      model: str(),
      securityScheme: str(),
      server: str(),
    },
    [],
    { description: 'Where: an operation (narrowed by the other fields), a model, a security scheme or a server; fields that do not apply are left out.' },
  ),
  SpecRevision: object({
    revision: int({ minimum: 1, description: 'The API revision at which the spec was stored.' }),
    creationDate: timestamp('When it was stored.'),
    user: { ...ref('Actor'), description: 'Who stored it.' },
    specFormat: str({ enum: [...SPEC_FORMATS] }),
    counts: { ...nullable(ref('ChangeCounts')), description: 'The changes against the spec before it; `null` for the first.' },
    reason: { ...nullable(str()), description: 'The `allowBreaking` reason given with it, if any.' },
  }),
  SpecRevisionList: listOf('SpecRevision', 'Newest first.'),
  ChangeSide: object({ revision: { ...nullable(int({ minimum: 1 })), description: '`null` for a release made before spec history was kept.' }, release: nullable(str()) }),
  ChangesBetween: object({
    from: { ...nullable(ref('ChangeSide')), description: '`null` when `to` is the first spec the API had: nothing to compare with.' },
    to: ref('ChangeSide'),
    breaking: bool(),
    counts: ref('ChangeCounts'),
    items: array(ref('Change'), { description: 'Not paged; `counts` tallies every change, whether or not `items` keeps it.' }),
    truncated: { type: 'boolean', enum: [true], description: 'Present when `items` holds only the first of the changes (`CHANGES_MAX_ITEMS`, default 10,000); `counts` counts them all.' },
  }, ['from', 'to', 'breaking', 'counts', 'items']),
  ChangelogEntry: object({
    release: object({ version: VERSION_LABEL, status: str({ enum: ['released', 'deprecated', 'endOfLife'] }), releaseDate: timestamp('When it was released.') }),
    since: { ...nullable(VERSION_LABEL), description: 'The release before it; `null` for the first.' },
    counts: ref('ChangeCounts'),
    items: array(ref('Change')),
    truncated: { type: 'boolean', enum: [true], description: 'Present when `items` holds only the first of the changes (`CHANGES_MAX_ITEMS`, default 10,000); `counts` counts them all.' },
  }, ['release', 'since', 'counts', 'items']),
  Changelog: listOf('ChangelogEntry', 'Releases newest first.'),
};
