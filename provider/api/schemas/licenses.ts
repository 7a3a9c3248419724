/** Schemas of the licences area: licence records and activation. */
import { z } from "zod";
import { Bool, Int, NullableString, nullable } from "./common";

/** The features a licence enables. */
export const LicenseFeatures = z.looseObject({
  auto_scaling: Bool.optional(),
  branding: Bool.optional(),
  session_staging: Bool.optional(),
  session_casting: Bool.optional(),
  log_forwarding: Bool.optional(),
  developer_api: Bool.optional(),
  inject_ssh_keys: Bool.optional(),
  saml: Bool.optional(),
  ldap: Bool.optional(),
  session_sharing: Bool.optional(),
  login_banner: Bool.optional(),
  url_categorization: Bool.optional(),
  usage_limit: Bool.optional(),
});
/** The features a licence enables. */
export type LicenseFeatures = z.infer<typeof LicenseFeatures>;

/** A licence applied to the deployment. */
export const License = z.object({
  license_id: z.string(),
  expiration: NullableString.optional(),
  issued_at: NullableString.optional(),
  issued_to: NullableString.optional(),
  /** Seats. */
  limit: nullable(Int).optional(),
  is_verified: nullable(Bool).optional(),
  license_type: NullableString.optional(),
  sku: NullableString.optional(),
  features: LicenseFeatures.nullable().optional(),
});
/** A licence applied to the deployment. */
export type License = z.infer<typeof License>;

/** Parameters of `activate`. */
export const ActivateParams = z.object({
  /** The armored activation key text block. A secret: never logged. */
  activation_key: z.string(),
  /** Seats to take from the entitlement; without it the deployment takes the maximum. */
  seats: z.number().int().positive().optional(),
  /** Informational: whom the licence is attributed to in later reporting. */
  issued_to: z.string().optional(),
});
/** Parameters of `activate`. */
export type ActivateParams = z.infer<typeof ActivateParams>;
