import type { JsonSchema } from './openapi.types.js';
import { ref, str, int, bool, nullable, object, closed, NICKNAME, API_TYPE, VERSION_LABEL, BINARY } from './schemas.js';

/** Import and spec updates: the options, the multipart forms and what they answer. */
export const SPECS_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  ImportOptions: closed({
    nickname: str({ ...NICKNAME, description: 'Default: made from `info.title`.' }),
    type: API_TYPE,
    createRelease: bool('Release the document as well (needs `api_release` too).'),
    releaseVersion: { ...VERSION_LABEL, description: 'The release label; default `info.version`. Read only with `createRelease`.' },
  }),
  ImportForm: closed({
    spec: { ...BINARY, description: 'The Swagger 2.0, OpenAPI 3.0 or OpenAPI 3.1 document, YAML or JSON. Send it as `spec` or as `file`, once.' },
    file: { ...BINARY, description: 'The same as `spec`, under the other accepted name.' },
    body: { ...ref('ImportOptions'), description: 'A JSON object, as a plain field or a part with its own content type.' },
  }),
  SpecUpdateOptions: closed({ release: { ...VERSION_LABEL, description: 'Release the new document under this label (or give `?release=`, not both).' } }),
  SpecUpdateForm: closed({
    spec: { ...BINARY, description: 'The Swagger 2.0, OpenAPI 3.0 or OpenAPI 3.1 document, YAML or JSON. Send it as `spec` or as `file`, once.' },
    file: { ...BINARY, description: 'The same as `spec`, under the other accepted name.' },
    body: { ...ref('SpecUpdateOptions'), description: 'A JSON object, as a plain field or a part with its own content type.' },
  }),
  SpecResult: object({
    api: ref('Api'),
    release: { ...nullable(ref('Release')), description: 'The release made with it, or `null`.' },
    counts: ref('DerivedCounts'),
    changes: { ...nullable(ref('SpecChanges')), description: 'What the spec changed against the current one (nothing when it is the same text); `null` for an import or an API\'s first spec.' },
  }),
  DryRunResult: object(
    {
      api: { ...ref('Api'), description: 'The API as it is: a dry run changes nothing.' },
      counts: { ...ref('DerivedCounts'), description: 'The derived counts of the document sent.' },
      changes: ref('SpecChanges'),
    },
    undefined,
    { description: 'What `PUT .../spec?dryRun=true` answers.' },
  ),
  DerivedCounts: object({ endpoints: int({ minimum: 0 }), models: int({ minimum: 0 }), environments: int({ minimum: 0 }), authAdapters: int({ minimum: 0 }) }),
};
