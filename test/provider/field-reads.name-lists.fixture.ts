/**
 * Reads of API record fields by name list, through `fromApiFields`, in the forms the scanner of
 * ./field-reads.ts must see (it is scanned, never run).
 */
import { fromApiFields, type StagingConfig, type Zone } from "../../provider/api";

/** The names a constant lists. */
const ZONE_FIELDS = ["zoneName", "autoScalingEnabled"] as const;

/** A literal list, a constant list: each name is a read of the field it stands for. */
export function readsByName(config: StagingConfig, zone: Zone): unknown[] {
  return [fromApiFields(config, ["numSessions", "expiration"]), fromApiFields(zone, ZONE_FIELDS)];
}
