import type { Logger } from '../adapters/logging/pino-logger.js';
import type { IdentitySettings } from '../application/identity/identity-settings.js';
import { token } from '../application/shared/token.js';
import type { Config } from './config.js';
import type { WorkerPeers } from './webhook-worker.js';

/** Tokens of what the composition root binds beside the ports: its configuration, its logger, the identity settings, the webhook worker's peers. */
export const ConfigToken = token<Config>('Config');
export const IdentitySettingsToken = token<IdentitySettings>('IdentitySettings');
export const LoggerToken = token<Logger>('Logger');
/** The other webhook workers on the database (PostgreSQL with its change listener), or null. */
export const WorkerPeersToken = token<WorkerPeers | null>('WorkerPeers');
