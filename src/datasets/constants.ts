import { deepFreeze } from '../core/freeze';
/** Lists shared by the table schemas and zod-free code (merging), so the latter pulls no schema into a bundle. */
export const GWP_METHODS = /* @__PURE__ */ deepFreeze(['ar4', 'ar5', 'ar6'] as const);

export const CLOUD_PROVIDERS = /* @__PURE__ */ deepFreeze(['aws', 'azure', 'gcp'] as const);
