import { Initial1763780000000 } from './0001-initial.migration.js';

/** Every migration in order; new ones are appended, never edited once released. */
export const MIGRATIONS = [Initial1763780000000];
