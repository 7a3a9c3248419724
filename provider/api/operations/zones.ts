/** Operations of the zones area. */
import { z } from "zod";
import { Zone, type GetZonesParams } from "../schemas/zones";
import type { KasmApi } from "../transport";

/** List the deployment zones (`get_zones`; needs Zones View). `brief` limits the fields per zone. */
export async function getZones(api: KasmApi, params: GetZonesParams = {}): Promise<Zone[]> {
  return (await api.transport.call("get_zones", params, z.object({ zones: z.array(Zone) }))).zones;
}
