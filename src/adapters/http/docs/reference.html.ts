import type { ApiReference, ModelDoc, OperationDoc, OperationGroup, TypeRef } from '../../../domain/spec/api-reference.js';
import { escapeHtml } from '../html.js';
import { renderInlineMarkdown, renderMarkdown } from './markdown.js';

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

const md = (text: string | null, headingOffset: number) => (text === null ? '' : renderMarkdown(text, headingOffset));
const inline = (text: string | null) => (text === null ? '' : renderInlineMarkdown(text));

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
    case 'reference':
      return `<code>${escapeHtml(type.ref)}</code> <span class="sb-badge">not resolved</span>`;
    case 'any':
      return 'any';
  }
}

function operationHtml(op: OperationDoc, id: string, models: ReadonlyMap<string, string>): string {
  const parameters =
    op.parameters.length === 0
      ? ''
      : `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>${op.parameters
          .map(
            (p) =>
              `<tr><td><code>${escapeHtml(p.name)}</code>${p.required ? ' <span class="sb-required">required</span>' : ''}</td><td>${escapeHtml(p.in ?? '')}</td><td>${typeHtml(p.type, models)}</td><td>${inline(p.description)}</td></tr>`,
          )
          .join('')}</tbody></table>`;
  const responses =
    op.responses.length === 0
      ? ''
      : `<h4>Responses</h4><table><thead><tr><th>Status</th><th>Description</th><th>Body</th></tr></thead><tbody>${op.responses
          .map((r) => `<tr><td><code>${escapeHtml(r.status)}</code></td><td>${inline(r.description)}</td><td>${typeHtml(r.type, models)}</td></tr>`)
          .join('')}</tbody></table>`;
  const method = op.method.toLowerCase();
  return `<section class="sb-operation${op.deprecated ? ' deprecated' : ''}" id="${id}"><h3><span class="sb-method ${escapeHtml(method)}">${escapeHtml(op.method)}</span> <code>${escapeHtml(op.path)}</code>${
    op.deprecated ? ' <span class="sb-badge deprecated">deprecated</span>' : ''
  }</h3>${op.summary === null ? '' : `<p class="sb-summary">${escapeHtml(op.summary)}</p>`}${md(op.description, 3)}${parameters}${responses}</section>`;
}

function groupHtml(group: OperationGroup, id: string, anchors: Anchors, models: ReadonlyMap<string, string>): string {
  const operations = group.operations.map((op) => operationHtml(op, anchors.make(op.method, op.path), models)).join('\n');
  return `<section class="sb-group" id="${id}"><h2>${escapeHtml(group.tag ?? 'Other operations')}</h2>${md(group.description, 2)}\n${operations}</section>`;
}

function modelHtml(model: ModelDoc, id: string, models: ReadonlyMap<string, string>): string {
  const isObject = model.type.kind === 'primitive' && model.type.type === 'object';
  const kind = isObject ? '' : `<p>${typeHtml(model.type, models)}</p>`;
  const parents = model.extends.length === 0 ? '' : `<p>Includes ${model.extends.map((t) => typeHtml(t, models)).join(', ')}</p>`;
  const properties =
    model.properties.length === 0
      ? ''
      : `<table><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody>${model.properties
          .map(
            (p) =>
              `<tr><td><code>${escapeHtml(p.name)}</code>${p.required ? ' <span class="sb-required">required</span>' : ''}</td><td>${typeHtml(p.type, models)}</td><td>${inline(p.description)}</td></tr>`,
          )
          .join('')}</tbody></table>`;
  return `<section class="sb-model" id="${id}"><h3>${escapeHtml(model.name)}</h3>${md(model.description, 3)}${kind}${parents}${properties}</section>`;
}

/** Operations by tag, then the models; every name and text is the owner's, escaped or rendered as safe Markdown. */
export function renderReference(reference: ApiReference, anchors: Anchors): RenderedReference {
  const models = new Map(reference.models.map((m) => [m.name, anchors.make('model', m.name)]));
  const groups = reference.groups.map((group) => ({ group, id: anchors.make('tag', group.tag ?? 'other') }));
  const modelsId = anchors.make('section', 'models');
  const contents = `<ul>${groups.map(({ group, id }) => `<li><a href="#${id}">${escapeHtml(group.tag ?? 'Other operations')}</a></li>`).join('')}${
    reference.models.length > 0 ? `<li><a href="#${modelsId}">Models</a></li>` : ''
  }</ul>`;
  const servers = reference.baseUrls.length === 0 ? '' : `<p class="sb-meta">Base URL: ${reference.baseUrls.map((u) => `<code>${escapeHtml(u)}</code>`).join(', ')}</p>`;
  const body = `${servers}${groups.map(({ group, id }) => groupHtml(group, id, anchors, models)).join('\n')}${
    reference.models.length > 0 ? `<section class="sb-group" id="${modelsId}"><h2>Models</h2>${reference.models.map((m) => modelHtml(m, models.get(m.name)!, models)).join('\n')}</section>` : ''
  }${reference.groups.length === 0 && reference.models.length === 0 ? '<p class="sb-empty">The spec describes no operations and no models.</p>' : ''}`;
  return { contents, body };
}
