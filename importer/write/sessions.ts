/**
 * The program's sections about how sessions start: staging configs (sessions kept ready per zone
 * and image) and casting links. Apart from the other areas because both are plain records taken
 * over by their natural key, their values copied field by field from Kasm's answer, referring to
 * zones by id and to images and a casting link's group through the program where it declares them.
 */
import { fromApiFields } from "../../provider/api/records";
import type { CastConfig } from "../../provider/api";
import { rawId, setValues, type ProgramWriter } from "./writer";

// --- helpers -------------------------------------------------------------------------------------

/** The client permissions both kinds of config hold: what a session started from them may do. */
const CLIENT_PERMISSIONS = ["allowWsAudio", "allowWsUploads", "allowWsDownloads", "allowWsClipboardDown", "allowWsClipboardUp", "allowWsMicrophone"] as const;

// --- the sections --------------------------------------------------------------------------------

/** One StagingConfig per staging config, taken over by zone and image. */
export function writeStagingConfigs(w: ProgramWriter): void {
  const configs = w.wanted("staging-configs", w.inventory.stagingConfigs);
  if (configs === undefined) return;
  const lines = configs.map((config) => {
    const name = w.names.resource(`${config.zone_name ?? config.zone_id.slice(0, 8)}-${config.image_friendly_name ?? config.image_id.slice(0, 8)}`, "staging");
    const values = setValues(
      fromApiFields(config, [
        "numSessions",
        "expiration",
        ...CLIENT_PERMISSIONS,
      ]),
    );
    return w.declare(undefined, "StagingConfig", name, config.staging_config_id, { zoneId: rawId(config.zone_id, config.zone_name ?? undefined), imageId: w.imageRef(config.image_id, config.image_friendly_name ?? undefined), ...values, adopt: true }, w.options());
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
    const values = setValues(
      fromApiFields(config, [
        "castingConfigName",
        "key",
        "allowedReferrers",
        "limitSessions",
        "limitIps",
        "ipRequestLimit",
        "ipRequestSeconds",
        "errorUrl",
        "enableSharing",
        "disableControlPanel",
        "disableTips",
        "disableFixedRes",
        "allowAnonymous",
        "requireRecaptcha",
        "wsUrl",
        "dynamicWsUrl",
        "dynamicCtrNetwork",
        "allowResume",
        "enforceClientSettings",
        ...CLIENT_PERMISSIONS,
        "allowWsSharing",
        "wsAudioDefaultOn",
        "wsImeModeDefaultOn",
        "validUntil",
      ]),
    );
    return w.declare(
      undefined,
      "CastConfig",
      name,
      config.cast_config_id,
      {
        castingConfigName: values.castingConfigName,
        imageId: w.imageRef(config.image_id, config.image_friendly_name ?? undefined),
        ...values,
        // A counter Kasm counts down: declared only where the link limits sessions (then it is required).
        sessionRemaining: config.limit_sessions === true ? (config.session_remaining ?? 0) : undefined,
        groupId: config.group_id ? w.groupRef(config.group_id) : undefined,
        adopt: true,
      },
      w.options(),
    );
  });
  w.row("cast-configs", configs.length, lines.length);
  if (lines.length > 0) w.section("Casting", "Casting links, taken over by key.", `${lines.join("\n")}\n`);
}
