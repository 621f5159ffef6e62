import { token } from '../shared/token.js';

/** How much of one comparison of two specs is kept and answered. */
export interface ChangeSettings {
  /**
   * Items kept of one comparison (`CHANGES_MAX_ITEMS`); beyond it the first ones are kept with
   * `truncated: true`, and `counts` still counts them all.
   */
  readonly maxItems: number;
}

export const DEFAULT_CHANGE_SETTINGS: ChangeSettings = { maxItems: 10_000 };

export const ChangeSettings = token<ChangeSettings>('ChangeSettings');
