/**
 * The lookups' one implementation: given a client and a lookup's arguments, find the record(s) in
 * the API's form; and what a record type's secret fields are. Two callers present the results:
 *
 * - the program's lookups (`sdk/lookups/`: `getZone`, `getZoneOutput`, ...), with the program's
 *   client, secret fields left out of the plain results and secret Outputs in their twins;
 * - the native provider's Invoke (`provider/native/invoke.ts`: `kasm:index:getZone`, ...), with
 *   the provider's installation, secret fields as secret values of its answer, and a package
 *   schema's `functions` derived from {@link LOOKUPS}.
 *
 * One file per area (`users.ts`, `images-zones.ts`, `egress.ts`, `groups-licenses.ts`, `registries.ts`), like
 * sdk/lookups; what they share in `common.ts`; each record type's secret fields in `secrets.ts`,
 * which a program loads without the lookups (and zod with them) until its first lookup.
 */
import type { LookupName } from "../../permissions/lookups";
import type { Lookup } from "./common";
import { EGRESS_LOOKUPS } from "./egress";
import { GROUP_LICENSE_LOOKUPS } from "./groups-licenses";
import { IMAGE_ZONE_LOOKUPS } from "./images-zones";
import { REGISTRY_LOOKUPS } from "./registries";
import { USER_LOOKUPS } from "./users";

export * from "./common";
export * from "./egress";
export * from "./groups-licenses";
export * from "./images-zones";
export * from "./registries";
export * from "./secrets";
export * from "./users";

/**
 * Every lookup, by its name: the permission catalogue's list (`permissions/lookups.ts`), which the compiler
 * holds the table to (a lookup missing here fails to compile).
 */
export const LOOKUPS = {
  ...USER_LOOKUPS,
  ...IMAGE_ZONE_LOOKUPS,
  ...EGRESS_LOOKUPS,
  ...GROUP_LICENSE_LOOKUPS,
  ...REGISTRY_LOOKUPS,
} satisfies Readonly<Record<LookupName, Lookup>>;
