import { protectedRoutes, standaloneRoutes, type HttpDependencies } from '../app.js';
import { buildOpenApiDocument } from './openapi-document.js';
import type { OpenApiDocument, Operation, RequestBody } from './openapi.types.js';
import { PROBLEM_STATUS } from './problems.js';

/** The lines around the generated part of docs/http-api.md: everything between them is replaced. */
export const REFERENCE_START = '<!-- reference:start: generated from the routes by `npm run docs:reference`; a test fails when it is not current -->';
export const REFERENCE_END = '<!-- reference:end -->';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function schemaName(ref: string | undefined): string | undefined {
  return ref?.replace('#/components/schemas/', '');
}

function bodyOf(body: RequestBody | undefined): string {
  if (body === undefined) return '';
  return Object.entries(body.content)
    .map(([type, media]) => {
      const name = schemaName(media.schema?.$ref);
      return name === undefined ? `\`${type}\`` : `\`${type}\` ${name}`;
    })
    .join(', ');
}

function credentialsOf(operation: Operation): string {
  if (operation.security.length === 0) return 'none';
  return operation.security
    .flatMap((requirement) => Object.entries(requirement).map(([scheme, scopes]) => (scheme === 'apiToken' ? `\`${scopes.join(' ')}\`` : scheme)))
    .join(' or ');
}

/** `201`, or `404 not_found` for an answer that is only problems. */
function answersOf(operation: Operation): string {
  return Object.entries(operation.responses)
    .map(([status, response]) => {
      const codes = Object.entries(response.content ?? {}).flatMap(([, media]) => {
        const parts = media.schema?.allOf ?? [];
        return parts.flatMap((part) => (part.properties?.['code']?.enum ?? []) as string[]);
      });
      return codes.length === 0 ? status : `${status} ${codes.map((c) => `\`${c}\``).join(' ')}`;
    })
    .join('; ');
}

/**
 * The reference part of docs/http-api.md: every problem code with its status, then every
 * operation of the description by tag, with its credentials, request body and answers. Written
 * from the same document `/openapi.json` serves, so it cannot say something the service does not.
 */
export function httpReference(document: OpenApiDocument): string {
  const lines = [
    REFERENCE_START,
    '',
    '## Reference',
    '',
    'Generated from the routes\' own declarations (the same source as `/openapi.json`): what each operation needs and answers. The sections above explain them.',
    '',
    '### Problem codes',
    '',
    '| code | status |',
    '|---|---|',
    ...Object.entries(PROBLEM_STATUS).map(([code, status]) => `| \`${code}\` | ${status} |`),
  ];
  for (const tag of document.tags) {
    const rows: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (operation === undefined || !operation.tags.includes(tag.name)) continue;
        rows.push(`| \`${method.toUpperCase()} ${path}\` | ${cell(operation.summary)} | ${credentialsOf(operation)} | ${cell(bodyOf(operation.requestBody))} | ${answersOf(operation)} |`);
      }
    }
    if (rows.length === 0) continue;
    lines.push('', `### ${tag.name}`, '', cell(tag.description ?? ''), '', '| operation | summary | credentials | body | answers |', '|---|---|---|---|---|', ...rows);
  }
  lines.push('', REFERENCE_END);
  return lines.join('\n');
}

/** `markdown` with its generated part replaced by `reference`; throws when the markers are missing. */
export function withReference(markdown: string, reference: string): string {
  const start = markdown.indexOf(REFERENCE_START);
  const end = markdown.indexOf(REFERENCE_END);
  if (start < 0 || end < start) throw new Error(`docs/http-api.md needs the lines ${REFERENCE_START} and ${REFERENCE_END}`);
  return markdown.slice(0, start) + reference + markdown.slice(end + REFERENCE_END.length);
}

/**
 * The reference as the service describes itself. The route table is built without use cases:
 * only its declarations are read, no handler runs.
 */
export function serviceReference(): string {
  const deps = {} as HttpDependencies;
  return httpReference(buildOpenApiDocument({ routes: protectedRoutes(deps), standalone: standaloneRoutes(deps), publicUrl: 'https://specbase.example.com', scopeBase: 'https://specbase.example.com', version: '0' }));
}
