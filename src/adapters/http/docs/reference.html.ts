import type { SecurityRequirement } from '../../../domain/spec/api-description.js';
import type { ApiReference, ContentDoc, ModelDoc, OperationDoc, OperationGroup, PropertyDoc, TypeRef } from '../../../domain/spec/api-reference.js';
import type { AuthAdapter, OAuthScope } from '../../../domain/spec/derived-resources.js';
import { escapeHtml } from '../html.js';
import type { MarkdownRenderer } from './markdown.js';

/** Element ids made from names of the owner's choosing: only a-z, 0-9 and "-", each id once. */
export class Anchors {
  private readonly used = new Set<string>();

  make(prefix: string, name: string): string {
    const slug = `${prefix}-${name}`
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
    let id = slug;
    for (let n = 2; this.used.has(id); n++) id = `${slug}-${n}`;
    this.used.add(id);
    return id;
  }
}

/** The reference's parts as HTML, and the table of contents for the sidebar. */
export interface RenderedReference {
  readonly contents: string;
  readonly body: string;
}

const md = (m: MarkdownRenderer, text: string | null, headingOffset: number) => (text === null ? '' : m.block(text, headingOffset));
const inline = (m: MarkdownRenderer, text: string | null) => (text === null ? '' : m.inline(text));

function typeHtml(type: TypeRef | null, models: ReadonlyMap<string, string>): string {
  if (type === null) return '';
  switch (type.kind) {
    case 'model': {
      const anchor = models.get(type.name);
      return anchor ? `<a href="#${anchor}"><code>${escapeHtml(type.name)}</code></a>` : `<code>${escapeHtml(type.name)}</code>`;
    }
    case 'array':
      return `array of ${typeHtml(type.items, models)}`;
    case 'map':
      return `map of ${typeHtml(type.values, models)}`;
    case 'primitive': {
      const format = type.format === null ? '' : ` (${escapeHtml(type.format)})`;
      const values = type.enum.length === 0 ? '' : `: one of ${type.enum.map((v) => `<code>${escapeHtml(v)}</code>`).join(', ')}`;
      return `<code>${escapeHtml(type.type)}</code>${format}${values}`;
    }
    case 'union':
      return type.options.map((option) => typeHtml(option, models)).join(' or ');
    case 'reference':
      return `<code>${escapeHtml(type.ref)}</code> <span class="sb-badge">not resolved</span>`;
    case 'any':
      return 'any';
  }
}

const required = (yes: boolean) => (yes ? ' <span class="sb-required">required</span>' : '');
const deprecatedBadge = (yes: boolean) => (yes ? ' <span class="sb-badge deprecated">deprecated</span>' : '');

function propertiesTable(m: MarkdownRenderer, properties: readonly PropertyDoc[], models: ReadonlyMap<string, string>, heading = 'Property'): string {
  if (properties.length === 0) return '';
  return `<table><thead><tr><th>${heading}</th><th>Type</th><th>Description</th></tr></thead><tbody>${properties
    .map((p) => `<tr><td><code>${escapeHtml(p.name)}</code>${required(p.required)}</td><td>${typeHtml(p.type, models)}</td><td>${inline(m, p.description)}</td></tr>`)
    .join('')}</tbody></table>`;
}

const mediaTypesHtml = (content: ContentDoc) => content.mediaTypes.map((t) => `<code>${escapeHtml(t)}</code>`).join(', ');

/** A body by media type: `application/json, application/xml: Pet`. */
function contentHtml(content: ContentDoc, models: ReadonlyMap<string, string>): string {
  const types = mediaTypesHtml(content);
  return `${types}${types === '' ? '' : ': '}${typeHtml(content.type, models)}`;
}

/** `oauth (read:pets, write:pets) and key`, alternatives separated by "or"; schemes link to their description. */
function securityHtml(security: readonly SecurityRequirement[], schemes: ReadonlyMap<string, string>): string {
  if (security.length === 0) return '';
  const alternatives = security.map((requirement) =>
    requirement.length === 0
      ? 'none'
      : requirement
          .map(({ scheme, scopes }) => {
            const anchor = schemes.get(scheme);
            const name = anchor ? `<a href="#${anchor}"><code>${escapeHtml(scheme)}</code></a>` : `<code>${escapeHtml(scheme)}</code>`;
            return `${name}${scopes.length === 0 ? '' : ` (${scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(', ')})`}`;
          })
          .join(' and '),
  );
  return `<p class="sb-security">Security: ${alternatives.join(' or ')}</p>`;
}

function operationHtml(m: MarkdownRenderer, op: OperationDoc, id: string, models: ReadonlyMap<string, string>, schemes: ReadonlyMap<string, string>): string {
  const parameters =
    op.parameters.length === 0
      ? ''
      : `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>${op.parameters
          .map(
            (p) =>
              `<tr><td><code>${escapeHtml(p.name)}</code>${required(p.required)}${deprecatedBadge(p.deprecated)}</td><td>${escapeHtml(p.in ?? '')}</td><td>${typeHtml(p.type, models)}</td><td>${inline(m, p.description)}</td></tr>`,
          )
          .join('')}</tbody></table>`;
  const body = op.requestBody;
  const requestBody =
    body === null
      ? ''
      : `<h4>Request body${required(body.required)}</h4>${md(m, body.description, 4)}${body.contents
          .map((c) => `<p class="sb-media">${contentHtml(c, models)}</p>${propertiesTable(m, c.properties, models, 'Field')}`)
          .join('')}`;
  const responses =
    op.responses.length === 0
      ? ''
      : `<h4>Responses</h4><table><thead><tr><th>Status</th><th>Description</th><th>Body</th></tr></thead><tbody>${op.responses
          .map((r) => `<tr><td><code>${escapeHtml(r.status)}</code></td><td>${inline(m, r.description)}</td><td>${r.contents.map((c) => contentHtml(c, models)).join('<br>')}</td></tr>`)
          .join('')}</tbody></table>`;
  const method = op.method.toLowerCase();
  return `<section class="sb-operation${op.deprecated ? ' deprecated' : ''}" id="${id}"><h3><span class="sb-method ${escapeHtml(method)}">${escapeHtml(op.method)}</span> <code>${escapeHtml(op.path)}</code>${deprecatedBadge(
    op.deprecated,
  )}</h3>${op.summary === null ? '' : `<p class="sb-summary">${escapeHtml(op.summary)}</p>`}${md(m, op.description, 3)}${securityHtml(op.security, schemes)}${parameters}${requestBody}${responses}</section>`;
}

const scopesHtml = (m: MarkdownRenderer, scopes: readonly OAuthScope[]) =>
  scopes.length === 0 ? '' : `<ul>${scopes.map((s) => `<li><code>${escapeHtml(s.name)}</code>${s.description === '' ? '' : `: ${inline(m, s.description)}`}</li>`).join('')}</ul>`;

const urlHtml = (label: string, url: string | null) => (url === null ? '' : `<br>${label}: <code>${escapeHtml(url)}</code>`);

/** What a security scheme asks of a client, for either format's adapter. */
function schemeDetails(m: MarkdownRenderer, scheme: AuthAdapter): string {
  if ('flows' in scheme) {
    switch (scheme.type) {
      case 'apiKey':
        return `API key in the ${escapeHtml(scheme.in ?? '')} <code>${escapeHtml(scheme.paramName ?? '')}</code>`;
      case 'http':
        return `HTTP <code>${escapeHtml(scheme.scheme ?? '')}</code> authentication${scheme.bearerFormat === null ? '' : ` (${escapeHtml(scheme.bearerFormat)})`}`;
      case 'openIdConnect':
        return `OpenID Connect${urlHtml('Discovery', scheme.openIdConnectUrl)}`;
      case 'mutualTLS':
        return 'Mutual TLS (a client certificate)';
      case 'oauth2':
        return `OAuth 2.0${Object.entries(scheme.flows ?? {})
          .map(([flow, f]) => `<p><strong>${escapeHtml(flow)}</strong>${urlHtml('Authorization URL', f.authorizationUrl)}${urlHtml('Token URL', f.tokenUrl)}${urlHtml('Refresh URL', f.refreshUrl)}</p>${scopesHtml(m, f.scopes)}`)
          .join('')}`;
      default:
        return escapeHtml(scheme.type);
    }
  }
  switch (scheme.type) {
    case 'apiKey':
      return `API key in the ${escapeHtml(scheme.in ?? '')} <code>${escapeHtml(scheme.parameterName ?? '')}</code>`;
    case 'basic':
      return 'HTTP <code>basic</code> authentication';
    case 'oauth2':
      return `OAuth 2.0, <strong>${escapeHtml(scheme.flow ?? '')}</strong> flow${urlHtml('Authorization URL', scheme.authorizationUrl)}${urlHtml('Token URL', scheme.tokenUrl)}${scopesHtml(m, scheme.scopes)}`;
    default:
      return escapeHtml(scheme.type);
  }
}

function schemeHtml(m: MarkdownRenderer, scheme: AuthAdapter, id: string): string {
  return `<section class="sb-scheme" id="${id}"><h3>${escapeHtml(scheme.name)}</h3>${md(m, scheme.description, 3)}<p>${schemeDetails(m, scheme)}</p></section>`;
}

function groupHtml(m: MarkdownRenderer, group: OperationGroup, id: string, anchors: Anchors, models: ReadonlyMap<string, string>, schemes: ReadonlyMap<string, string>): string {
  const operations = group.operations.map((op) => operationHtml(m, op, anchors.make(op.method, op.path), models, schemes)).join('\n');
  return `<section class="sb-group" id="${id}"><h2>${escapeHtml(group.tag ?? 'Other operations')}</h2>${md(m, group.description, 2)}\n${operations}</section>`;
}

function modelHtml(m: MarkdownRenderer, model: ModelDoc, id: string, models: ReadonlyMap<string, string>): string {
  const isObject = model.type.kind === 'primitive' && model.type.type === 'object';
  const kind = isObject ? '' : `<p>${typeHtml(model.type, models)}</p>`;
  const parents = model.extends.length === 0 ? '' : `<p>Includes ${model.extends.map((t) => typeHtml(t, models)).join(', ')}</p>`;
  return `<section class="sb-model" id="${id}"><h3>${escapeHtml(model.name)}</h3>${md(m, model.description, 3)}${kind}${parents}${propertiesTable(m, model.properties, models)}</section>`;
}

/**
 * Servers, operations by tag, webhooks, security schemes, then the models; every name and text is
 * the owner's, escaped, or rendered as safe Markdown by `markdown` (the same texts in the same order
 * for the same reference: PageMarkdown relies on it).
 */
export function renderReference(reference: ApiReference, anchors: Anchors, markdown: MarkdownRenderer): RenderedReference {
  const m = markdown;
  const models = new Map(reference.models.map((m) => [m.name, anchors.make('model', m.name)]));
  const schemes = new Map(reference.securitySchemes.map((s) => [s.name, anchors.make('security', s.name)]));
  const groups = reference.groups.map((group) => ({ group, id: anchors.make('tag', group.tag ?? 'other') }));
  const webhooksId = anchors.make('section', 'webhooks');
  const schemesId = anchors.make('section', 'security');
  const modelsId = anchors.make('section', 'models');
  const contents = `<ul>${groups.map(({ group, id }) => `<li><a href="#${id}">${escapeHtml(group.tag ?? 'Other operations')}</a></li>`).join('')}${
    reference.webhooks.length > 0 ? `<li><a href="#${webhooksId}">Webhooks</a></li>` : ''
  }${reference.securitySchemes.length > 0 ? `<li><a href="#${schemesId}">Authentication</a></li>` : ''}${reference.models.length > 0 ? `<li><a href="#${modelsId}">Models</a></li>` : ''}</ul>`;
  const servers =
    reference.servers.length === 0
      ? ''
      : `<p class="sb-meta">${reference.servers.length === 1 ? 'Server' : 'Servers'}: ${reference.servers
          .map((s) => `<code>${escapeHtml(s.url)}</code>${s.description === null ? '' : ` (${inline(m, s.description)})`}`)
          .join(', ')}</p>`;
  const security =
    reference.securitySchemes.length === 0
      ? ''
      : `<section class="sb-group" id="${schemesId}"><h2>Authentication</h2>${reference.securitySchemes.map((s) => schemeHtml(m, s, schemes.get(s.name)!)).join('\n')}</section>`;
  const webhooks =
    reference.webhooks.length === 0
      ? ''
      : `<section class="sb-group" id="${webhooksId}"><h2>Webhooks</h2><p>Requests the API sends to its subscribers.</p>${reference.webhooks
          .map((op) => operationHtml(m, op, anchors.make(`webhook-${op.method}`, op.path), models, schemes))
          .join('\n')}</section>`;
  const body = `${servers}${groups.map(({ group, id }) => groupHtml(m, group, id, anchors, models, schemes)).join('\n')}${webhooks}${security}${
    reference.models.length > 0 ? `<section class="sb-group" id="${modelsId}"><h2>Models</h2>${reference.models.map((model) => modelHtml(m, model, models.get(model.name)!, models)).join('\n')}</section>` : ''
  }${reference.groups.length === 0 && reference.webhooks.length === 0 && reference.models.length === 0 ? '<p class="sb-empty">The spec describes no operations and no models.</p>' : ''}`;
  return { contents, body };
}
