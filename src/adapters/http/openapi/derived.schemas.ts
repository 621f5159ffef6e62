import type { JsonSchema } from './openapi.types.js';
import { ref, str, bool, array, nullable, object, listOf } from './schemas.js';

/** The resources derived from a spec: endpoints, domain models, environments, authentication adapters. */
export const DERIVED_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Endpoint: object({
    method: nullable(str({ enum: ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'], description: '`null` when the path item is a `$ref` that could not be followed. `TRACE` in OpenAPI 3 only.' })),
    path: str({ description: 'The key of `paths` as written (in Swagger 2.0 without `basePath`).' }),
    operationId: nullable(str()),
    summary: nullable(str()),
    tags: array(str()),
    deprecated: bool(),
    unresolved: bool('The path item is an external `$ref`, or an internal one that leads nowhere, in a circle, or to something that is not a path item.'),
  }),
  EndpointList: listOf('Endpoint', 'Endpoints in document order.'),
  DomainModel: object({
    name: str({ description: 'The key in `definitions` (Swagger 2.0) or `components.schemas` (OpenAPI 3).' }),
    schema: { description: 'The schema as written, internal `$ref`s kept.' },
    unresolved: bool('The model is an external `$ref`, or an internal one that leads nowhere, in a circle, or to something that is not a schema.'),
  }),
  DomainModelList: listOf('DomainModel', 'Domain models in document order.'),
  Environment: { oneOf: [ref('Swagger2Environment'), ref('OpenApi3Environment')], description: 'An environment of a Swagger 2.0 or of an OpenAPI 3 document.' },
  Swagger2Environment: object(
    {
      scheme: nullable(str()),
      host: nullable(str()),
      basePath: str({ description: 'Default `/`.' }),
      url: nullable(str({ description: '`<scheme>://<host><basePath>` when scheme and host are known.' })),
    },
    undefined,
    { description: 'Swagger 2.0: one per scheme of the document.' },
  ),
  OpenApi3Environment: object(
    {
      url: str({ description: 'As written, `{variable}` templates and all; `/` when the document has no `servers`.' }),
      description: nullable(str()),
      variables: { type: 'object', additionalProperties: { type: 'object' }, description: 'The server variables as written (`default`, `enum`, `description`).' },
    },
    undefined,
    { description: 'OpenAPI 3: one per entry of the top-level `servers`.' },
  ),
  EnvironmentList: listOf('Environment', 'One environment per scheme (Swagger 2.0) or per server (OpenAPI 3) of the document.'),
  AuthAdapter: { oneOf: [ref('Swagger2AuthAdapter'), ref('OpenApi3AuthAdapter')], description: 'A security scheme of a Swagger 2.0 or of an OpenAPI 3 document.' },
  OAuthScope: object({ name: str(), description: str() }),
  OAuthFlow: object({ authorizationUrl: nullable(str()), tokenUrl: nullable(str()), refreshUrl: nullable(str()), scopes: array(ref('OAuthScope')) }),
  Swagger2AuthAdapter: object(
    {
      name: str(),
      type: str({ description: '`basic`, `apiKey` or `oauth2`.' }),
      description: nullable(str()),
      flow: nullable(str({ description: 'oauth2: implicit, password, application or accessCode.' })),
      authorizationUrl: nullable(str()),
      tokenUrl: nullable(str()),
      scopes: array(ref('OAuthScope')),
      in: nullable(str()),
      parameterName: nullable(str()),
    },
    undefined,
    { description: 'Swagger 2.0: one per entry of `securityDefinitions`.' },
  ),
  OpenApi3AuthAdapter: object(
    {
      name: str(),
      type: str({ description: '`apiKey`, `http`, `oauth2`, `openIdConnect` or `mutualTLS`; `unknown` when the scheme is a `$ref` that could not be followed.' }),
      description: nullable(str()),
      scheme: nullable(str({ description: 'http: `basic`, `bearer`, ...' })),
      bearerFormat: nullable(str({ description: 'http bearer: the token format, e.g. `JWT`.' })),
      in: nullable(str({ description: 'apiKey: `header`, `query` or `cookie`.' })),
      paramName: nullable(str({ description: 'apiKey: the header, query parameter or cookie name.' })),
      flows: nullable({ type: 'object', additionalProperties: ref('OAuthFlow'), description: 'oauth2: the flows by name (`implicit`, `password`, `clientCredentials`, `authorizationCode`).' }),
      openIdConnectUrl: nullable(str()),
      unresolved: bool('The scheme is an external `$ref`, or an internal one that leads nowhere, in a circle, or to something that is not a security scheme.'),
    },
    undefined,
    { description: 'OpenAPI 3: one per entry of `components.securitySchemes`.' },
  ),
  AuthAdapterList: listOf('AuthAdapter', 'One adapter per entry of `securityDefinitions` (Swagger 2.0) or `components.securitySchemes` (OpenAPI 3).'),
};
