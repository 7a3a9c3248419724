/** Schemas of the licences area: licence records and activation. */
import { z } from "zod";
import { Bool, Int, NullableString, nullable } from "./common";

/** The features a licence enables. */
export const LicenseFeatures = z.looseObject({
  auto_scaling: Bool.optional().describe("Whether the licence enables auto-scaling."),
  branding: Bool.optional().describe("Whether the licence enables branding."),
  session_staging: Bool.optional().describe("Whether the licence enables session staging."),
  session_casting: Bool.optional().describe("Whether the licence enables session casting."),
  log_forwarding: Bool.optional().describe("Whether the licence enables log forwarding."),
  developer_api: Bool.optional().describe("Whether the licence enables the Developer API."),
  inject_ssh_keys: Bool.optional().describe("Whether the licence enables SSH key injection."),
  saml: Bool.optional().describe("Whether the licence enables SAML authentication."),
  ldap: Bool.optional().describe("Whether the licence enables LDAP."),
  session_sharing: Bool.optional().describe("Whether the licence enables session sharing."),
  login_banner: Bool.optional().describe("Whether the licence enables the login banner."),
  url_categorization: Bool.optional().describe("Whether the licence enables URL categorisation."),
  usage_limit: Bool.optional().describe("Whether the licence enables usage limits."),
});
/** The features a licence enables. */
export type LicenseFeatures = z.infer<typeof LicenseFeatures>;

/** A licence applied to the deployment. */
export const License = z.object({
  license_id: z.string().describe("The licence's id."),
  expiration: NullableString.optional().describe("When the licence expires."),
  issued_at: NullableString.optional().describe("When the licence was issued."),
  issued_to: NullableString.optional().describe("Whom the licence is attributed to in reporting (informational)."),
  limit: nullable(Int).optional().describe("The number of seats the licence grants."),
  is_verified: nullable(Bool).optional().describe("Whether the licence is verified."),
  license_type: NullableString.optional().describe("The licence's type."),
  sku: NullableString.optional().describe("The licence's SKU."),
  features: LicenseFeatures.nullable().optional().describe("Which features the licence enables, each true or false."),
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
