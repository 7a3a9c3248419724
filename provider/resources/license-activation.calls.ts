/**
 * What the LicenseActivation provider (`./license-activation.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import { declareCalls, plan } from "../../permissions/planned-calls";

/**
 * What each step of a LicenseActivation calls.
 */
export const licenseActivationCalls = declareCalls("LicenseActivation", () => ({
  create: [plan("activate")],
  // Kasm cannot read or remove licenses; every change replaces (a new activation).
  read: [],
  update: [],
  delete: [],
}));
