/**
 * License activation, and the product's license list (get_licenses, product mode only).
 */
import { z } from "zod";
import { InvalidRequest } from "../errors";
import { LICENSE, LICENSE_FEATURES } from "../fields";
import type { LicenseRecord } from "../store";
import { int, parse, text, type Handler } from "./common";

const Activation = z.object({ activation_key: z.string().optional(), seats: int.nullable().optional(), issued_to: text.optional() });

/** One of the spec's license features. */
type LicenseFeature = (typeof LICENSE_FEATURES.documented)[number];

/** A license; its features are the spec's thirteen, each false unless the entitlement grants it. */
function licenseJson(l: LicenseRecord, observedFields: boolean) {
  const features = Object.fromEntries(LICENSE_FEATURES.documented.map((name) => [name, l.features[name] === true]));
  return LICENSE.form({ ...l, features: LICENSE_FEATURES.form(features as Record<LicenseFeature, boolean>, observedFields) }, observedFields);
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
