/** Schemas of the licenses area: license records and activation. */
import { z } from "zod";
import { Bool, Int, NullableString, nullable } from "./common";

/** The features a license enables. */
export const LicenseFeatures = z.looseObject({
  auto_scaling: Bool.optional().describe("Whether the license enables auto-scaling."),
  branding: Bool.optional().describe("Whether the license enables branding."),
  session_staging: Bool.optional().describe("Whether the license enables session staging."),
  session_casting: Bool.optional().describe("Whether the license enables session casting."),
  log_forwarding: Bool.optional().describe("Whether the license enables log forwarding."),
  developer_api: Bool.optional().describe("Whether the license enables the Developer API."),
  inject_ssh_keys: Bool.optional().describe("Whether the license enables SSH key injection."),
  saml: Bool.optional().describe("Whether the license enables SAML authentication."),
  ldap: Bool.optional().describe("Whether the license enables LDAP."),
  session_sharing: Bool.optional().describe("Whether the license enables session sharing."),
  login_banner: Bool.optional().describe("Whether the license enables the login banner."),
  url_categorization: Bool.optional().describe("Whether the license enables URL categorisation."),
  usage_limit: Bool.optional().describe("Whether the license enables usage limits."),
});
/** The features a license enables. */
export type LicenseFeatures = z.infer<typeof LicenseFeatures>;

/** A license applied to the deployment. */
export const License = z.object({
  license_id: z.string().describe("The license's id."),
  expiration: NullableString.optional().describe("When the license expires."),
  issued_at: NullableString.optional().describe("When the license was issued."),
  issued_to: NullableString.optional().describe("Whom the license is attributed to in reporting (informational)."),
  limit: nullable(Int).optional().describe("The number of seats the license grants."),
  is_verified: nullable(Bool).optional().describe("Whether the license is verified."),
  license_type: NullableString.optional().describe("The license's type."),
  sku: NullableString.optional().describe("The license's SKU."),
  features: LicenseFeatures.nullable().optional().describe("Which features the license enables, each true or false."),
});
/** A license applied to the deployment. */
export type License = z.infer<typeof License>;

/** Parameters of `activate`. */
export const ActivateParams = z.object({
  /** The armored activation key text block. A secret: never logged. */
  activation_key: z.string(),
  /** Seats to take from the entitlement; without it the deployment takes the maximum. */
  seats: z.number().int().positive().optional(),
  /** Informational: whom the license is attributed to in later reporting. */
  issued_to: z.string().optional(),
});
/** Parameters of `activate`. */
export type ActivateParams = z.infer<typeof ActivateParams>;
