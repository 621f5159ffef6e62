import type { Logger } from '../adapters/logging/pino-logger.js';
import type { IdentitySettings } from '../application/identity/identity-settings.js';
import { token } from '../application/shared/token.js';
import type { Config } from './config.js';

/** Tokens of what the composition root binds beside the ports: its configuration, its logger, the identity settings. */
export const ConfigToken = token<Config>('Config');
export const IdentitySettingsToken = token<IdentitySettings>('IdentitySettings');
export const LoggerToken = token<Logger>('Logger');
