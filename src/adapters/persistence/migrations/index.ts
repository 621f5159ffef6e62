import { Initial1763780000000 } from './0001-initial.migration.js';
import { SpecsAndReleases1763790000000 } from './0002-specs-and-releases.migration.js';
import { Webhooks1763800000000 } from './0003-webhooks.migration.js';
import { Pages1763810000000 } from './0004-pages.migration.js';
import { Shares1763820000000 } from './0005-shares.migration.js';
import { EmailVerifications1763830000000 } from './0006-email-verifications.migration.js';
import { Identity1763840000000 } from './0007-identity.migration.js';
import { RateLimits1763850000000 } from './0008-rate-limits.migration.js';
import { ChangeNotifications1763860000000 } from './0009-change-notifications.migration.js';
import { DeliveryLeases1763870000000 } from './0010-delivery-leases.migration.js';
import { SpecFormat1763880000000 } from './0011-spec-format.migration.js';
import { SpecHistory1763890000000 } from './0012-spec-history.migration.js';
import { Plans1763900000000 } from './0013-plans.migration.js';
import { IdentityClients1763910000000 } from './0014-identity-clients.migration.js';
import { DeviceCodes1763920000000 } from './0015-device-codes.migration.js';
import { ClientRegistration1763930000000 } from './0016-client-registration.migration.js';
import { IdentityIndexes1763940000000 } from './0017-identity-indexes.migration.js';
import { Reliability1763950000000 } from './0018-reliability.migration.js';
import { ClientChangeNotifications1764000000000 } from './0019-client-change-notifications.migration.js';
import { LeaseIndex1764100000000 } from './0020-lease-index.migration.js';
import { DropDueIndex1764200000000 } from './0021-drop-due-index.migration.js';
import { WebhookLeases1764300000000 } from './0022-webhook-leases.migration.js';
import { Lz4Documents1764400000000 } from './0023-lz4-documents.migration.js';
import { WebhookPayloads1764500000000 } from './0024-webhook-payloads.migration.js';
import { RedirectUrisVerified1764600000000 } from './0025-redirect-uris-verified.migration.js';
import { RemovalAfterSunset1764700000000 } from './0026-removal-after-sunset.migration.js';

/** Every migration in order; new ones are appended, never edited once released. */
export const MIGRATIONS = [Initial1763780000000, SpecsAndReleases1763790000000, Webhooks1763800000000, Pages1763810000000, Shares1763820000000, EmailVerifications1763830000000, Identity1763840000000, RateLimits1763850000000, ChangeNotifications1763860000000, DeliveryLeases1763870000000, SpecFormat1763880000000, SpecHistory1763890000000, Plans1763900000000, IdentityClients1763910000000, DeviceCodes1763920000000, ClientRegistration1763930000000, IdentityIndexes1763940000000, Reliability1763950000000, ClientChangeNotifications1764000000000, LeaseIndex1764100000000, DropDueIndex1764200000000, WebhookLeases1764300000000, Lz4Documents1764400000000, WebhookPayloads1764500000000, RedirectUrisVerified1764600000000, RemovalAfterSunset1764700000000];
