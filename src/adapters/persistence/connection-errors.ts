import { QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';

/** Node's socket error codes that say the database cannot be reached. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL's SQLSTATEs of a server that is away or refusing: class 08 (connection exception),
 * 57P01-57P03 (shut down by an administrator, crashed, starting up or shutting down), 53300 (too
 * many connections).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[1-3]|53300)$/;

/** What node-postgres and its pool say when a connection died or never came. */
const MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is not established|terminating connection due to administrator command|the database system is (starting up|shutting down|in recovery mode)/i;

/**
 * Whether `error` (as TypeORM or node-postgres throws it: a QueryFailedError carrying `driverError`,
 * or the driver's own) means the database did not answer, rather than that it refused a statement.
 */
export function isConnectionFailure(error: unknown): boolean {
  // TypeORM releases a transaction's query runner when its connection dies mid-transaction; the
  // statements after that fail with these.
  if (error instanceof QueryRunnerAlreadyReleasedError || error instanceof QueryRunnerProviderAlreadyReleasedError) return true;
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 3; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
    e = (e as { driverError?: unknown; cause?: unknown }).driverError ?? (e as { cause?: unknown }).cause;
  }
  return false;
}
