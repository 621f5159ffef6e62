/**
 * The catalog of change rules: every rule id the classifier can report, with its level and what
 * it means. Ids are stable (clients and CI scripts branch on them); a new kind of change gets a new
 * id, never another meaning for an old one. docs/changes.md shows each with an example.
 */
export type ChangeLevel = 'breaking' | 'warning' | 'info';

export const LEVELS: readonly ChangeLevel[] = ['breaking', 'warning', 'info'];

/** Changes a schema can undergo, wherever it stands (a parameter, a body, a property, a header). */
export const SCHEMA_KINDS = [
  'type-changed',
  'type-narrowed',
  'type-widened',
  'nullable-added',
  'nullable-removed',
  'format-changed',
  'format-added',
  'format-removed',
  'enum-value-added',
  'enum-value-removed',
  'enum-added',
  'enum-removed',
  'max-decreased',
  'max-increased',
  'min-increased',
  'min-decreased',
  'pattern-changed',
  'multiple-of-changed',
  'unique-items-added',
  'unique-items-removed',
  'default-changed',
  'additional-properties-added',
  'additional-properties-removed',
  'option-added',
  'option-removed',
  'pattern-added',
  'pattern-removed',
  'const-added',
  'const-removed',
  'const-changed',
  'extensible-enum-value-added',
  'extensible-enum-value-removed',
  'contains-added',
  'contains-removed',
  'dependent-required-added',
  'dependent-required-removed',
  'condition-changed',
  'content-media-type-changed',
  'content-encoding-changed',
  'one-of-overlap-added',
  'discriminator-added',
  'discriminator-removed',
  'discriminator-property-changed',
  'discriminator-mapping-added',
  'discriminator-mapping-removed',
  'discriminator-mapping-changed',
  'not-narrowed',
  'not-widened',
  'not-changed',
  'multiple-of-narrowed',
  'multiple-of-widened',
] as const;
export type SchemaKind = (typeof SCHEMA_KINDS)[number];

/** Changes of an object's properties (reported with the property's path). */
export const PROPERTY_KINDS = ['added', 'required-added', 'removed', 'became-required', 'became-optional', 'deprecated', 'became-read-only', 'became-writable', 'became-write-only', 'became-readable'] as const;
export type PropertyKind = (typeof PROPERTY_KINDS)[number];

/**
 * Whether a schema change lets fewer values through (`narrows`), more (`widens`), or cannot be
 * told (`neither`: its level is fixed below). A client sends requests and receives responses, so
 * the two break in opposite directions: narrowing what a request may hold breaks clients that
 * send what is no longer accepted; widening what a response may hold breaks clients that do not
 * expect it.
 */
const SCHEMA_EFFECT: Record<SchemaKind, 'narrows' | 'widens' | 'neither'> = {
  'type-changed': 'neither',
  'type-narrowed': 'narrows',
  'type-widened': 'widens',
  'nullable-added': 'widens',
  'nullable-removed': 'narrows',
  'format-changed': 'neither',
  'format-added': 'narrows',
  'format-removed': 'widens',
  'enum-value-added': 'widens',
  'enum-value-removed': 'narrows',
  'enum-added': 'narrows',
  'enum-removed': 'widens',
  'max-decreased': 'narrows',
  'max-increased': 'widens',
  'min-increased': 'narrows',
  'min-decreased': 'widens',
  'pattern-changed': 'neither',
  'multiple-of-changed': 'neither',
  'unique-items-added': 'narrows',
  'unique-items-removed': 'widens',
  'default-changed': 'neither',
  'additional-properties-added': 'widens',
  'additional-properties-removed': 'narrows',
  'option-added': 'widens',
  'option-removed': 'narrows',
  'pattern-added': 'narrows',
  'pattern-removed': 'widens',
  'const-added': 'narrows',
  'const-removed': 'widens',
  'const-changed': 'neither',
  'extensible-enum-value-added': 'neither',
  'extensible-enum-value-removed': 'narrows',
  'contains-added': 'narrows',
  'contains-removed': 'widens',
  'dependent-required-added': 'narrows',
  'dependent-required-removed': 'widens',
  'condition-changed': 'neither',
  'content-media-type-changed': 'neither',
  'content-encoding-changed': 'neither',
  'one-of-overlap-added': 'narrows',
  'discriminator-added': 'neither',
  'discriminator-removed': 'neither',
  'discriminator-property-changed': 'neither',
  'discriminator-mapping-added': 'widens',
  'discriminator-mapping-removed': 'narrows',
  'discriminator-mapping-changed': 'neither',
  'not-narrowed': 'widens',
  'not-widened': 'narrows',
  'not-changed': 'neither',
  'multiple-of-narrowed': 'narrows',
  'multiple-of-widened': 'widens',
};

const FIXED_SCHEMA_LEVEL: Partial<Record<SchemaKind, ChangeLevel>> = {
  'type-changed': 'breaking',
  'format-changed': 'breaking',
  // A pattern is a language of its own: whether the new one takes every value of the old cannot be decided here.
  'pattern-changed': 'warning',
  // A new multiple that neither divides nor is a multiple of the old one: some values pass that did not, some no longer do.
  'multiple-of-changed': 'warning',
  // Clients that leave the value out get another one.
  'default-changed': 'warning',
  // The one value taken is another: what was sent is refused, what was received is not what comes.
  'const-changed': 'breaking',
  // An extensible enum promises other values may come: a client must already take values it does not know.
  'extensible-enum-value-added': 'info',
  // then and else apply to other values than before: which values pass cannot be told in general.
  'condition-changed': 'warning',
  // The text carries another kind of content, or the same in another encoding: neither side reads the other's.
  'content-media-type-changed': 'breaking',
  'content-encoding-changed': 'breaking',
  // The alternatives are now told apart by a property (or no longer are): clients that did not send or read it may fail.
  'discriminator-added': 'warning',
  'discriminator-removed': 'warning',
  'discriminator-property-changed': 'breaking',
  'discriminator-mapping-changed': 'breaking',
  // What `not` excludes changed in a way that neither only adds nor only takes away values.
  'not-changed': 'warning',
};

export type Direction = 'request' | 'response';

export function schemaLevel(kind: SchemaKind, direction: Direction): ChangeLevel {
  const fixed = FIXED_SCHEMA_LEVEL[kind];
  if (fixed !== undefined) return fixed;
  const effect = SCHEMA_EFFECT[kind];
  return (direction === 'request' && effect === 'narrows') || (direction === 'response' && effect === 'widens') ? 'breaking' : 'info';
}

const PROPERTY_LEVEL: Record<Direction, Record<PropertyKind, ChangeLevel>> = {
  request: {
    added: 'info',
    'required-added': 'breaking',
    removed: 'warning',
    'became-required': 'breaking',
    'became-optional': 'info',
    deprecated: 'warning',
    // The server no longer takes what clients send there: ignored or refused, as a property removed.
    'became-read-only': 'warning',
    'became-writable': 'info',
    'became-write-only': 'info',
    'became-readable': 'info',
  },
  response: {
    added: 'info',
    'required-added': 'info',
    removed: 'breaking',
    'became-required': 'info',
    'became-optional': 'breaking',
    deprecated: 'warning',
    'became-read-only': 'info',
    'became-writable': 'info',
    // No longer sent to clients: as a property removed.
    'became-write-only': 'breaking',
    'became-readable': 'info',
  },
};

export function propertyLevel(kind: PropertyKind, direction: Direction): ChangeLevel {
  return PROPERTY_LEVEL[direction][kind];
}

/**
 * The change a schema undergoes when one inside its `not` does: a schema inside `not` that lets
 * fewer values through (`not-narrowed`) excludes fewer, so the schema lets more through, and the
 * other way round. A property change inside counts as narrowing where it breaks requests, as
 * widening where it breaks responses; one of fixed level, as neither.
 */
export function negatedKind(kind: SchemaKind | `property-${PropertyKind}`): SchemaKind {
  const effect = kind.startsWith('property-')
    ? PROPERTY_LEVEL.request[kind.slice('property-'.length) as PropertyKind] === 'breaking'
      ? 'narrows'
      : PROPERTY_LEVEL.response[kind.slice('property-'.length) as PropertyKind] === 'breaking'
        ? 'widens'
        : 'neither'
    : FIXED_SCHEMA_LEVEL[kind as SchemaKind] === undefined
      ? SCHEMA_EFFECT[kind as SchemaKind]
      : 'neither';
  return effect === 'narrows' ? 'not-narrowed' : effect === 'widens' ? 'not-widened' : 'not-changed';
}

/**
 * Where a schema stands: the scope its root changes are named by. `callback-*`: in a request the
 * API sends (a webhook, a callback), which the client's consumer receives, or in the answer the
 * consumer gives it.
 */
export type SchemaScope =
  | 'request-parameter'
  | 'request-body'
  | 'response-body'
  | 'response-header'
  | 'callback-request-parameter'
  | 'callback-request-body'
  | 'callback-response-body'
  | 'callback-response-header';

/**
 * What the client does with the data at each place: sends it (`request`) or receives it
 * (`response`). A webhook or callback turns the exchange round: the client's consumer receives the
 * request the API sends, and sends the answer.
 */
export const SCOPE_DIRECTION: Readonly<Record<SchemaScope | `${Direction}-property`, Direction>> = {
  'request-parameter': 'request',
  'request-body': 'request',
  'request-property': 'request',
  'response-body': 'response',
  'response-property': 'response',
  'response-header': 'response',
  'callback-request-parameter': 'response',
  'callback-request-body': 'response',
  'callback-response-body': 'request',
  'callback-response-header': 'request',
};

/** Rules of operations, parameters, bodies, responses, security and servers, each at one level. */
export const FIXED_RULES = {
  'endpoint-added': { level: 'info', means: 'An operation (path and method) was added.' },
  'endpoint-removed': { level: 'breaking', means: 'An operation was removed: its clients get 404 or 405.' },
  'endpoint-deprecated': { level: 'warning', means: 'An operation became deprecated.' },
  'endpoint-reactivated': { level: 'info', means: 'A deprecated operation is no longer deprecated.' },
  'endpoint-sunset-changed': { level: 'warning', means: "An operation's `x-sunset` date was set or changed." },
  'endpoint-sunset-removed': { level: 'info', means: "An operation's `x-sunset` date was removed: it is no longer scheduled for removal." },
  'endpoint-operation-id-changed': { level: 'warning', means: 'The `operationId` changed or was removed: code generated from it gets new names.' },
  'endpoint-operation-id-added': { level: 'info', means: 'An `operationId` was given to an operation that had none.' },
  'endpoint-description-changed': { level: 'info', means: "An operation's summary or description changed." },
  'endpoint-tag-added': { level: 'info', means: 'An operation was given another tag.' },
  'endpoint-tag-removed': { level: 'info', means: 'An operation lost a tag (it is listed elsewhere in references and generated code).' },
  'request-parameter-added': { level: 'info', means: 'An optional parameter was added.' },
  'request-parameter-required-added': { level: 'breaking', means: 'A required parameter was added: requests without it are refused.' },
  'request-parameter-removed': { level: 'warning', means: 'A parameter was removed: clients sending it may be refused or ignored.' },
  'request-parameter-became-required': { level: 'breaking', means: 'An optional parameter became required.' },
  'request-parameter-became-optional': { level: 'info', means: 'A required parameter became optional.' },
  'request-parameter-deprecated': { level: 'warning', means: 'A parameter became deprecated.' },
  'request-parameter-style-changed': {
    level: 'breaking',
    means: 'A parameter is written differently on the wire for its type (`style`, `explode`, `allowReserved`, 2.0 `collectionFormat`): what clients send is read otherwise.',
  },
  'request-body-added': { level: 'info', means: 'An optional request body was added.' },
  'request-body-required-added': { level: 'breaking', means: 'A required request body was added.' },
  'request-body-removed': { level: 'warning', means: 'The request body was removed: clients sending one may be refused.' },
  'request-body-became-required': { level: 'breaking', means: 'The request body became required.' },
  'request-body-became-optional': { level: 'info', means: 'The request body became optional.' },
  'request-media-type-added': { level: 'info', means: 'The request body may be sent in another media type.' },
  'request-media-type-removed': { level: 'breaking', means: 'A media type the request body could be sent in is no longer taken.' },
  'request-media-type-generalized': { level: 'info', means: 'The request body is taken in a media type that covers the old one (`application/*`, `application/json` for `application/problem+json`, a parameter less).' },
  'request-media-type-narrowed': { level: 'breaking', means: 'The request body is taken only in a media type that the old one covers: clients sending the old type are refused.' },
  'response-status-added': { level: 'info', means: 'A response status was added.' },
  'response-success-status-removed': { level: 'breaking', means: 'A success (2xx) response status was removed.' },
  'response-status-removed': { level: 'breaking', means: 'A non-success response status (or `default`) was removed: clients that handle it may now meet an undocumented answer instead.' },
  'response-media-type-added': { level: 'info', means: 'A response may come in another media type.' },
  'response-media-type-removed': { level: 'breaking', means: 'A media type a response came in is no longer sent.' },
  'response-media-type-generalized': { level: 'breaking', means: 'A response comes in a media type that covers the old one: a client may receive a type it cannot read.' },
  'response-media-type-narrowed': { level: 'info', means: 'A response comes in a media type that the old one covers.' },
  'response-header-added': { level: 'info', means: 'A response header was added.' },
  'response-header-removed': { level: 'warning', means: 'An optional response header was removed.' },
  'response-required-header-removed': { level: 'breaking', means: 'A response header that was always sent was removed.' },
  'response-header-became-optional': { level: 'breaking', means: 'A response header that was always sent may now be missing.' },
  'response-header-became-required': { level: 'info', means: 'A response header is now always sent.' },
  'webhook-added': { level: 'info', means: 'A webhook (a request the API sends, OpenAPI 3.1 `webhooks`) was added.' },
  'webhook-removed': { level: 'breaking', means: 'A webhook was removed: consumers waiting for it no longer get it.' },
  'callback-added': { level: 'info', means: 'A callback (a request the API sends while or after it handles an operation) was added.' },
  'callback-removed': { level: 'breaking', means: 'A callback was removed: consumers waiting for it no longer get it.' },
  'callback-request-parameter-added': { level: 'info', means: 'A request a webhook or callback sends has another parameter.' },
  'callback-request-parameter-removed': { level: 'warning', means: 'A request a webhook or callback sends lost an optional parameter: consumers that read it when present no longer get it.' },
  'callback-request-required-parameter-removed': { level: 'breaking', means: 'A request a webhook or callback sends lost a parameter it always had.' },
  'callback-request-parameter-became-required': { level: 'info', means: 'A parameter of a request a webhook or callback sends is now always there.' },
  'callback-request-parameter-became-optional': { level: 'breaking', means: 'A parameter a webhook or callback always sent may now be missing.' },
  'callback-request-parameter-deprecated': { level: 'warning', means: 'A parameter of a request a webhook or callback sends became deprecated.' },
  'callback-request-parameter-style-changed': { level: 'breaking', means: 'A parameter of a request a webhook or callback sends is written differently on the wire for its type: consumers read it otherwise.' },
  'callback-request-body-added': { level: 'info', means: 'A request a webhook or callback sends has a body it did not have.' },
  'callback-request-body-removed': { level: 'warning', means: 'A request a webhook or callback sends lost its optional body.' },
  'callback-request-required-body-removed': { level: 'breaking', means: 'A request a webhook or callback sends lost the body it always had.' },
  'callback-request-body-became-required': { level: 'info', means: 'The body of a request a webhook or callback sends is now always there.' },
  'callback-request-body-became-optional': { level: 'breaking', means: 'The body a webhook or callback always sent may now be missing.' },
  'callback-request-media-type-added': { level: 'warning', means: 'A webhook or callback may send its body in another media type: a consumer reading only the others fails if it gets it.' },
  'callback-request-media-type-removed': { level: 'info', means: 'A webhook or callback no longer sends its body in a media type.' },
  'callback-request-media-type-generalized': { level: 'breaking', means: 'A webhook or callback sends its body in a media type that covers the old one: a consumer may receive a type it cannot read.' },
  'callback-request-media-type-narrowed': { level: 'info', means: 'A webhook or callback sends its body in a media type that the old one covers.' },
  'callback-response-status-added': { level: 'info', means: 'A webhook or callback takes another status in its answer.' },
  'callback-response-status-removed': { level: 'breaking', means: 'A status a consumer could answer a webhook or callback with is no longer taken: consumers answering it may be taken as failing.' },
  'callback-response-media-type-added': { level: 'info', means: 'A webhook or callback takes its answer in another media type.' },
  'callback-response-media-type-removed': { level: 'breaking', means: 'A media type a consumer could answer a webhook or callback in is no longer taken.' },
  'callback-response-media-type-generalized': { level: 'info', means: 'A webhook or callback takes its answer in a media type that covers the old one.' },
  'callback-response-media-type-narrowed': { level: 'breaking', means: 'A webhook or callback takes its answer only in a media type that the old one covers: consumers answering in the old type are refused.' },
  'callback-response-header-added': { level: 'info', means: 'A webhook or callback reads an optional header of its answer.' },
  'callback-response-required-header-added': { level: 'breaking', means: 'A webhook or callback needs a header in its answer that consumers did not send.' },
  'callback-response-header-removed': { level: 'warning', means: 'A webhook or callback no longer reads a header of its answer: consumers sending it may be ignored.' },
  'callback-response-header-became-required': { level: 'breaking', means: 'A header of the answer to a webhook or callback became required.' },
  'callback-response-header-became-optional': { level: 'info', means: 'A header of the answer to a webhook or callback became optional.' },
  'security-requirement-added': { level: 'breaking', means: 'An operation needs credentials it did not need: a way of calling it that worked no longer does.' },
  'security-scope-added': { level: 'breaking', means: 'An operation needs more scopes of a scheme it already used.' },
  'security-requirement-removed': { level: 'info', means: 'An operation can be called in a way it could not: fewer credentials, another scheme, fewer scopes.' },
  'security-scheme-added': { level: 'info', means: 'A security scheme was added.' },
  'security-scheme-removed': { level: 'warning', means: 'A security scheme was removed.' },
  'security-scheme-type-changed': { level: 'breaking', means: "A security scheme's type changed (e.g. from apiKey to http)." },
  'security-scheme-key-changed': { level: 'breaking', means: "Where or how a credential is sent changed: an API key's place or name, an HTTP scheme." },
  'security-scheme-flow-added': { level: 'info', means: 'An OAuth 2.0 scheme offers another flow.' },
  'security-scheme-flow-removed': { level: 'breaking', means: 'An OAuth 2.0 scheme no longer offers a flow.' },
  'security-scheme-url-changed': { level: 'warning', means: 'An authorization, token, refresh or OpenID Connect URL changed.' },
  'security-scheme-scope-added': { level: 'info', means: 'An OAuth 2.0 flow offers another scope.' },
  'security-scheme-scope-removed': { level: 'warning', means: 'An OAuth 2.0 flow no longer offers a scope.' },
  'server-added': { level: 'info', means: 'A server (environment) was added.' },
  'server-removed': { level: 'warning', means: 'A server (environment) was removed: clients configured for it must move.' },
  'model-added': { level: 'info', means: 'A model (schema of `definitions` or `components.schemas`) was added.' },
  'model-removed': { level: 'info', means: 'A model was removed (what used it is reported where it was used).' },
} as const satisfies Record<string, { readonly level: ChangeLevel; readonly means: string }>;

export type FixedRuleId = keyof typeof FIXED_RULES;

export type SchemaRuleId = `${SchemaScope}-${SchemaKind}` | `${Direction}-property-${SchemaKind}` | `${Direction}-property-${PropertyKind}`;

export type RuleId = FixedRuleId | SchemaRuleId;

const SCHEMA_MEANS: Record<SchemaKind, string> = {
  'type-changed': 'the type changed to one that does not take the old one',
  'type-narrowed': 'a type was taken away (from a type list, or a type set where any was taken)',
  'type-widened': 'a type was added (to a type list, integer widened to number, or a type dropped)',
  'nullable-added': 'null became a valid value',
  'nullable-removed': 'null is no longer a valid value',
  'format-changed': 'the format changed (e.g. int32 to int64, date to date-time)',
  'format-added': 'a format now limits the values (e.g. uuid, date-time, email)',
  'format-removed': 'the format that limited the values was removed',
  'enum-value-added': 'an enum value was added',
  'enum-value-removed': 'an enum value was removed',
  'enum-added': 'an enum now limits the values',
  'enum-removed': 'the enum that limited the values was removed',
  'max-decreased': 'a maximum (maximum or exclusiveMaximum, maxLength, maxItems, maxProperties) was lowered or set, or made exclusive',
  'max-increased': 'a maximum was raised or removed, or made inclusive',
  'min-increased': 'a minimum (minimum or exclusiveMinimum, minLength, minItems, minProperties) was raised or set, or made exclusive',
  'min-decreased': 'a minimum was lowered or removed, or made inclusive',
  'pattern-changed': 'the pattern was set, changed or removed',
  'multiple-of-changed': 'multipleOf changed to a number that neither divides the old one nor is a multiple of it',
  'unique-items-added': 'the items of an array must now be unique',
  'unique-items-removed': 'the items of an array may now repeat',
  'default-changed': 'the default value changed',
  'additional-properties-added': 'properties not listed became allowed',
  'additional-properties-removed': 'properties not listed are no longer allowed',
  'option-added': 'a oneOf/anyOf alternative was added',
  'option-removed': 'a oneOf/anyOf alternative was removed',
  'pattern-added': 'a pattern now limits the values (it can only refuse values)',
  'pattern-removed': 'the pattern that limited the values was removed',
  'const-added': 'the value is now fixed (const)',
  'const-removed': 'the value is no longer fixed (const removed)',
  'const-changed': 'the one value taken (const) changed',
  'extensible-enum-value-added': 'an `x-extensible-enum` value was added (clients must already take unknown ones)',
  'extensible-enum-value-removed': 'an `x-extensible-enum` value was removed',
  'contains-added': 'an array must now contain an item matching `contains`',
  'contains-removed': 'an array no longer needs an item matching `contains`',
  'dependent-required-added': 'a property now requires another (`dependentRequired`)',
  'dependent-required-removed': 'a property no longer requires another (`dependentRequired`)',
  'condition-changed': 'the `if` condition changed: `then` and `else` apply to other values',
  'content-media-type-changed': "the media type of a string's content (`contentMediaType`) was set, changed or removed",
  'content-encoding-changed': "the encoding of a string's content (`contentEncoding`, e.g. base64) was set, changed or removed",
  'one-of-overlap-added': 'alternatives of a oneOf can now match the same value, which a oneOf then refuses',
  'discriminator-added': 'a discriminator now tells the alternatives apart',
  'discriminator-removed': 'the discriminator was removed',
  'discriminator-property-changed': "the discriminator's property changed",
  'discriminator-mapping-added': 'a discriminator value was mapped to a schema',
  'discriminator-mapping-removed': 'a discriminator value is no longer mapped',
  'discriminator-mapping-changed': 'a discriminator value is mapped to another schema',
  'not-narrowed': 'what `not` excludes shrank: more values pass',
  'not-widened': 'what `not` excludes grew: fewer values pass',
  'not-changed': 'what `not` excludes changed',
  'multiple-of-narrowed': 'multipleOf was set, or changed to a multiple of the old one (2 to 4): fewer values pass',
  'multiple-of-widened': 'multipleOf was removed, or changed to a divisor of the old one (4 to 2): more values pass',
};

const PROPERTY_MEANS: Record<PropertyKind, string> = {
  added: 'an optional property was added',
  'required-added': 'a required property was added',
  removed: 'a property was removed',
  'became-required': 'a property became required',
  'became-optional': 'a property became optional',
  deprecated: 'a property became deprecated',
  'became-read-only': 'a property became read-only (`readOnly`: sent by the server only)',
  'became-writable': 'a property is no longer read-only',
  'became-write-only': 'a property became write-only (`writeOnly`: sent by clients only)',
  'became-readable': 'a property is no longer write-only',
};

/** A schema rule's place: a scope, or a property of what a direction carries. */
type CatalogScope = SchemaScope | `${Direction}-property`;

const SCOPE_WORDS: Record<CatalogScope, string> = {
  'request-parameter': 'In a parameter',
  'request-body': 'In a request body',
  'response-body': 'In a response body',
  'response-header': 'In a response header',
  'request-property': 'In a property of what a client sends',
  'response-property': 'In a property of what a client receives',
  'callback-request-parameter': 'In a parameter of a request a webhook or callback sends',
  'callback-request-body': 'In the body of a request a webhook or callback sends',
  'callback-response-body': 'In the body of the answer a consumer gives a webhook or callback',
  'callback-response-header': 'In a header of the answer a consumer gives a webhook or callback',
};

/** Where schema rules stand, in catalog order: a property's rules follow its object's place. */
export const CATALOG_SCOPES = [
  'request-parameter',
  'request-body',
  'request-property',
  'response-body',
  'response-property',
  'response-header',
  'callback-request-parameter',
  'callback-request-body',
  'callback-response-body',
  'callback-response-header',
] as const satisfies readonly CatalogScope[];

export interface RuleEntry {
  readonly rule: RuleId;
  readonly level: ChangeLevel;
  readonly means: string;
}

/** Every rule, in catalog order: the fixed ones, then the schema rules by where they stand. */
export function ruleCatalog(): RuleEntry[] {
  const entries: RuleEntry[] = Object.entries(FIXED_RULES).map(([rule, { level, means }]) => ({ rule: rule as RuleId, level, means }));
  for (const scope of CATALOG_SCOPES) {
    const direction = SCOPE_DIRECTION[scope];
    for (const kind of SCHEMA_KINDS) entries.push({ rule: `${scope}-${kind}`, level: schemaLevel(kind, direction), means: `${SCOPE_WORDS[scope]}, ${SCHEMA_MEANS[kind]}.` });
    if (scope.endsWith('-property')) {
      for (const kind of PROPERTY_KINDS) entries.push({ rule: `${direction}-property-${kind}`, level: propertyLevel(kind, direction), means: `${SCOPE_WORDS[scope]}, ${PROPERTY_MEANS[kind]}.` });
    }
  }
  return entries;
}
