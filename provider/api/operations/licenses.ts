/** Operations of the licenses area. */
import { z } from "zod";
import { License, type ActivateParams } from "../schemas/licenses";
import type { KasmApi } from "../transport";

/**
 * Activate a license with an activation key (`activate`; needs Licenses Create). With `seats`,
 * takes that many seats of the key's entitlement; each call adds seats, so a call is never
 * repeated after a failure that may have reached the server.
 *
 * @throws {@link KasmBadRequestError} `Error during activation: <reason>`.
 */
export async function activate(api: KasmApi, params: ActivateParams): Promise<License> {
  return (await api.transport.call("activate", params, z.object({ license: License }))).license;
}

/**
 * Every license applied to the installation (`get_licenses`; a product operation, needs Licenses
 * View).
 *
 * @throws {@link KasmUnsupportedOperationError} with `apiNames` `spec`, before sending anything.
 */
export async function getLicenses(api: KasmApi): Promise<License[]> {
  return (await api.transport.call("get_licenses", {}, z.object({ licenses: z.array(License).default([]) }))).licenses;
}
