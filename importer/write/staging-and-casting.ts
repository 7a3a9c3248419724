/**
 * The program's areas about how sessions start: staging configs (sessions kept ready per zone and
 * image) and casting links. Apart from the other areas because both are plain records taken over
 * by their natural key, their values read from Kasm's answer by the kinds' own mapping (in the
 * client, `stagingConfigShown` and `castConfigShown`), referring to zones by id and to images and a
 * casting link's group through the program where it declares them.
 */
import { castConfigShown, stagingConfigShown, type CastConfig, type StagingConfig } from "../../provider/api";
import type { Area } from "./area";
import { rawId, setValues } from "./writer";

// --- the areas -----------------------------------------------------------------------------------

/** One StagingConfig per staging config, taken over by zone and image. */
export const STAGING_CONFIGS: Area<StagingConfig> = {
  area: "staging-configs",
  kind: "StagingConfig",
  section: { title: "Staging configs", comment: "Sessions kept ready per zone and image, taken over by zone and image." },
  records: (inventory) => inventory.stagingConfigs,
  name: (config) => [`${config.zone_name ?? config.zone_id.slice(0, 8)}-${config.image_friendly_name ?? config.image_id.slice(0, 8)}`, "staging"],
  id: (config) => config.staging_config_id,
  inputs(config, w) {
    // The kind's own reading of the record; the ids become references (or ids with their names).
    const { zoneId, imageId, ...values } = stagingConfigShown(config);
    return {
      zoneId: rawId(zoneId, config.zone_name ?? undefined),
      imageId: w.imageRef(imageId, config.image_friendly_name ?? undefined),
      ...setValues(values),
      adopt: true,
    };
  },
};

/** One CastConfig per casting link, taken over by key. */
export const CAST_CONFIGS: Area<CastConfig> = {
  area: "cast-configs",
  kind: "CastConfig",
  section: { title: "Casting", comment: "Casting links, taken over by key." },
  records: (inventory) => inventory.castConfigs,
  name: (config) => [`cast-${config.key}`, "cast"],
  id: (config) => config.cast_config_id,
  inputs(config, w) {
    // The kind's own reading of the record: the remaining sessions only where the link limits sessions (then it is required).
    const { imageId, groupId, sessionRemaining, ...shown } = castConfigShown(config);
    const values = setValues(shown);
    return {
      castingConfigName: values.castingConfigName,
      imageId: w.imageRef(imageId, config.image_friendly_name ?? undefined),
      ...values,
      sessionRemaining,
      groupId: groupId ? w.groupRef(groupId) : undefined,
      adopt: true,
    };
  },
};
