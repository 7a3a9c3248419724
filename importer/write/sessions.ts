/**
 * The program's sections about how sessions start: staging configs (sessions kept ready per zone
 * and image) and casting links. Apart from the other areas because both are plain records taken
 * over by their natural key, their values read from Kasm's answer by the kinds' own mapping (in the
 * client, `stagingConfigShown` and `castConfigShown`), referring to zones by id and to images and a
 * casting link's group through the program where it declares them.
 */
import { castConfigShown, stagingConfigShown, type CastConfig } from "../../provider/api";
import { rawId, setValues, type ProgramWriter } from "./writer";

// --- the sections --------------------------------------------------------------------------------

/** One StagingConfig per staging config, taken over by zone and image. */
export function writeStagingConfigs(w: ProgramWriter): void {
  const configs = w.wanted("staging-configs", w.inventory.stagingConfigs);
  if (configs === undefined) return;
  const lines = configs.map((config) => {
    const name = w.names.resource(`${config.zone_name ?? config.zone_id.slice(0, 8)}-${config.image_friendly_name ?? config.image_id.slice(0, 8)}`, "staging");
    // The kind's own reading of the record; the ids become references (or ids with their names).
    const { zoneId, imageId, ...values } = stagingConfigShown(config);
    return w.declare(
      undefined,
      "StagingConfig",
      name,
      config.staging_config_id,
      { zoneId: rawId(zoneId, config.zone_name ?? undefined), imageId: w.imageRef(imageId, config.image_friendly_name ?? undefined), ...setValues(values), adopt: true },
      w.options(),
    );
  });
  w.row("staging-configs", configs.length, lines.length);
  if (lines.length > 0) w.section("Staging configs", "Sessions kept ready per zone and image, taken over by zone and image.", `${lines.join("\n")}\n`);
}

/** One CastConfig per casting link, taken over by key. */
export function writeCastConfigs(w: ProgramWriter): void {
  const configs = w.wanted("cast-configs", w.inventory.castConfigs);
  if (configs === undefined) return;
  const lines = configs.map((config: CastConfig) => {
    const name = w.names.resource(`cast-${config.key}`, "cast");
    // The kind's own reading of the record: the remaining sessions only where the link limits sessions (then it is required).
    const { imageId, groupId, sessionRemaining, ...shown } = castConfigShown(config);
    const values = setValues(shown);
    return w.declare(
      undefined,
      "CastConfig",
      name,
      config.cast_config_id,
      {
        castingConfigName: values.castingConfigName,
        imageId: w.imageRef(imageId, config.image_friendly_name ?? undefined),
        ...values,
        sessionRemaining,
        groupId: groupId ? w.groupRef(groupId) : undefined,
        adopt: true,
      },
      w.options(),
    );
  });
  w.row("cast-configs", configs.length, lines.length);
  if (lines.length > 0) w.section("Casting", "Casting links, taken over by key.", `${lines.join("\n")}\n`);
}
