/**
 * Licence activation, and the product's licence list (get_licenses, product mode only).
 */
import { z } from "zod";
import { InvalidRequest } from "../errors";
import { LICENSE, LICENSE_FEATURES } from "../fields";
import type { LicenseRecord } from "../store";
import { int, parse, text, type Handler } from "./common";

const Activation = z.object({ activation_key: z.string().optional(), seats: int.nullable().optional(), issued_to: text.optional() });

/** A licence; its features are the spec's thirteen, each false unless the entitlement grants it. */
function licenseJson(l: LicenseRecord, observedFields: boolean) {
  const feature = (name: string) => l.features[name] === true;
  return LICENSE.form(
    {
      license_id: l.license_id,
      expiration: l.expiration,
      issued_at: l.issued_at,
      issued_to: l.issued_to,
      limit: l.limit,
      is_verified: l.is_verified,
      license_type: l.license_type,
      sku: l.sku,
      features: LICENSE_FEATURES.form(
        {
          auto_scaling: feature("auto_scaling"),
          branding: feature("branding"),
          session_staging: feature("session_staging"),
          session_casting: feature("session_casting"),
          log_forwarding: feature("log_forwarding"),
          developer_api: feature("developer_api"),
          inject_ssh_keys: feature("inject_ssh_keys"),
          saml: feature("saml"),
          ldap: feature("ldap"),
          session_sharing: feature("session_sharing"),
          login_banner: feature("login_banner"),
          url_categorization: feature("url_categorization"),
          usage_limit: feature("usage_limit"),
        },
        observedFields,
      ),
    },
    observedFields,
  );
}

const activate: Handler = ({ body, store, observedFields }) => {
  const req = parse(Activation, body, "");
  if (!req.activation_key?.trim()) throw new InvalidRequest("Invalid Request. Missing activation_key");
  const license = store.licenses.activate(req.activation_key, req.seats ?? undefined, req.issued_to ?? null);
  return { license: licenseJson(license, observedFields) };
};

/** The handlers of this area, by operation. */
export const licenseHandlers = {
  activate,
  get_licenses: ({ store, observedFields }) => ({ licenses: store.licenses.all().map((l) => licenseJson(l, observedFields)) }),
} satisfies Record<string, Handler>;
