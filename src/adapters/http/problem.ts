import type { SpecFormat } from '../../domain/spec/spec-document.js';
import type { ApplicationError } from '../../application/shared/application-error.js';
import type { FieldError } from '../../domain/shared/field-error.js';
import type { PlanLimitExceeded } from '../../domain/account/plan-allowance.js';

/** An RFC 9457 problem document, with the contract's stable `code`. */
export interface Problem {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly errors?: readonly FieldError[];
  /** Where a spec failed to parse (1-based), for `unparseable_spec`. */
  readonly line?: number | null;
  readonly column?: number | null;
  /** Response headers that belong to this problem (`WWW-Authenticate`, `Allow`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Members of its own a problem carries (`breaking_change`: `counts` and `items`). */
  readonly members?: Readonly<Record<string, unknown>>;
}

/** Problem type URIs: a stable URN per code, documented in docs/http-api.md. */
const FORMAT_NAMES: Record<SpecFormat, string> = { 'swagger-2.0': 'Swagger 2.0', 'openapi-3.0': 'OpenAPI 3.0', 'openapi-3.1': 'OpenAPI 3.1' };

export function problemType(code: string): string {
  return `urn:specbase:problem:${code}`;
}

export const REALM = 'specbase';

export function invalidToken(detail = 'The access token is missing, malformed, unknown or revoked.'): Problem {
  return {
    status: 401,
    code: 'invalid_token',
    title: 'Unauthorized',
    detail,
    headers: { 'WWW-Authenticate': `Bearer realm="${REALM}", error="invalid_token"` },
  };
}

/** Thrown by HTTP code for problems found before a use case runs (bad JSON, wrong media type...). */
export class HttpProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail);
  }
}

export function validationProblem(errors: readonly FieldError[]): Problem {
  const first = errors[0];
  return {
    status: 400,
    code: 'validation_failed',
    title: 'Bad Request',
    detail: first ? `${first.field}: ${first.message}` : 'The request is not valid.',
    errors,
  };
}

const QUOTA_WORDS: Record<PlanLimitExceeded['quota'], string> = {
  apis: 'APIs',
  webhooks: 'webhooks',
  apiTokens: 'API tokens',
  pagesPerApi: 'pages of this API',
  importBytes: 'bytes in one document',
  privateApis: 'private APIs',
};

function planLimitDetail(error: PlanLimitExceeded): string {
  const plan = error.plan === 'free' ? 'The free plan' : 'The Private plan';
  if (error.quota === 'privateApis') return `${plan} has no private APIs: make it public, or ask for the Private plan. Private APIs kept from before stay private and readable.`;
  if (error.quota === 'importBytes') return `${plan} takes at most ${error.limit} ${QUOTA_WORDS.importBytes}; this one has ${error.current}.`;
  return `${plan} allows ${error.limit} ${QUOTA_WORDS[error.quota]}, and ${error.current} exist: delete one, or ask for a larger plan.`;
}

/** The one mapping from application errors to HTTP: exhaustive, so a new kind fails the build. */
export function problemFor(error: ApplicationError): Problem {
  switch (error.kind) {
    case 'Unauthenticated':
      return invalidToken();
    case 'InsufficientScope':
      return {
        status: 403,
        code: 'insufficient_scope',
        title: 'Forbidden',
        detail: `The token lacks the scope this operation needs: ${error.scope}.`,
        headers: { 'WWW-Authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${error.scope}"` },
      };
    case 'RateLimited': {
      const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
      return { status: 429, code: 'rate_limited', title: 'Too Many Requests', detail: `Too many requests: try again in ${seconds} s.`, headers: { 'Retry-After': String(seconds) } };
    }
    case 'WrongPassword':
      return { status: 403, code: 'wrong_password', title: 'Forbidden', detail: 'The current password is wrong.' };
    case 'WeakPassword':
      return {
        status: 422,
        code: 'weak_password',
        title: 'Unprocessable Content',
        detail: `The new password is refused: ${error.errors[0]?.message ?? 'see errors'}`,
        errors: error.errors,
      };
    case 'EmailNotVerified':
      return { status: 403, code: 'email_not_verified', title: 'Forbidden', detail: 'Verify your e-mail address first.' };
    case 'Forbidden':
      return { status: 403, code: error.code, title: 'Forbidden', detail: error.detail };
    case 'PlanLimit':
      return { status: 403, code: 'plan_limit', title: 'Forbidden', detail: planLimitDetail(error), members: { plan: error.plan, quota: error.quota, limit: error.limit, current: error.current } };
    case 'Unprocessable':
      return { status: 422, code: error.code, title: 'Unprocessable Content', detail: error.detail };
    case 'NotFound':
      return { status: 404, code: 'not_found', title: 'Not Found', detail: `No such ${error.resource}.` };
    case 'Validation':
      return validationProblem(error.errors);
    case 'Conflict':
      return { status: 409, code: error.code, title: 'Conflict', detail: error.detail };
    case 'UnparseableSpec':
      return {
        status: 400,
        code: 'unparseable_spec',
        title: 'Bad Request',
        detail: error.line === null ? `The spec could not be read: ${error.message}` : `The spec could not be read at line ${error.line}, column ${error.column}: ${error.message}`,
        line: error.line,
        column: error.column,
      };
    case 'InvalidSpec':
      return {
        status: 422,
        code: 'invalid_spec',
        title: 'Unprocessable Content',
        detail: `${error.format === undefined ? 'The spec is not accepted' : `The spec is not valid ${FORMAT_NAMES[error.format]}`}: ${error.errors[0] ? `${error.errors[0].field}: ${error.errors[0].message}` : 'see errors'}`,
        errors: error.errors,
      };
    case 'BreakingChange': {
      const what = `${error.counts.breaking} breaking change${error.counts.breaking === 1 ? '' : 's'}`;
      const refusal = error.refusal;
      const detail =
        refusal.kind === 'BreakingChangeRefused'
          ? `The spec has ${what} and the API's breakingChangePolicy is refuse: fix them, or send allowBreaking=<reason>.`
          : `The spec has ${what} and the API's breakingChangePolicy is requireMajor: release it as a new major version${refusal.highestMajor === null ? '' : ` (above ${refusal.highestMajor})`} with release=<version>, or send allowBreaking=<reason>.`;
      return { status: 409, code: 'breaking_change', title: 'Conflict', detail, members: { counts: error.counts, items: error.items } };
    }
    case 'RevisionConflict':
      return {
        status: 412,
        code: 'revision_conflict',
        title: 'Precondition Failed',
        detail:
          error.actual === null
            ? `The resource changed while this request ran; revision ${error.expected} is no longer current.`
            : `If-Match names revision ${error.expected}, but the current revision is ${error.actual}.`,
      };
  }
}
