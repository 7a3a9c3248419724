/**
 * Staging configs: pools of sessions kept ready for an image in a zone. A config refers to a zone
 * and an image, whose models are passed in.
 */
import { AlreadyExists, MissingParameters, UnknownObject } from "../errors";
import {
  AreaModel,
  byId,
  definedOnly,
  newId,
  NO_CLIENT_PERMISSIONS,
  orUnknown,
  type ClientPermissions,
  type ProductClientPermissions,
  type Table,
} from "./common";
import type { ImagesModel } from "./images";
import type { ServersModel } from "./servers";

/** A staging config as stored: a pool of sessions of an image kept ready in a zone. */
export interface StagingConfigRecord extends ClientPermissions, ProductClientPermissions {
  staging_config_id: string;
  zone_id: string;
  image_id: string;
  num_sessions: number;
  num_current_sessions: number;
  expiration: number;
  /** The product's server pool and autoscale config of the staged sessions (product mode shows and sets them). */
  server_pool_id: string | null;
  autoscale_config_id: string | null;
}

/** The part of the state this model owns. */
export interface StagingTables {
  stagingConfigs: Table<StagingConfigRecord>;
}

/** The fields of a staging config a client may send. */
export type StagingConfigInput = Partial<Omit<StagingConfigRecord, "staging_config_id" | "num_current_sessions">>;

/** The models staging configs refer to. */
export interface StagingDependencies {
  servers: ServersModel;
  images: ImagesModel;
}

/** The staging configs and the rules that change them. */
export class StagingModel extends AreaModel<StagingTables, StagingDependencies> {
  /** Every staging config. */
  all(): StagingConfigRecord[] {
    return Object.values(this.tables.stagingConfigs);
  }

  /** A staging config an operation refers to, with the product's wording when it is unknown. */
  requireStagingConfig(id: unknown): StagingConfigRecord {
    return orUnknown(byId(this.tables.stagingConfigs, id), id, (given) => `Staging config with id (${given}) does not exist`);
  }

  /** create_staging_config: zone and image must exist; (zone, image) is unique. The id is a new one, or the one a seed pins (canonical form). */
  createStagingConfig(input: StagingConfigInput, id: string = newId()): StagingConfigRecord {
    if (!input.zone_id || !input.image_id || input.num_sessions === undefined || input.expiration === undefined) throw new MissingParameters(".");
    const config: StagingConfigRecord = {
      staging_config_id: id,
      zone_id: "",
      image_id: "",
      num_sessions: 0,
      num_current_sessions: 0,
      expiration: 0,
      server_pool_id: null,
      autoscale_config_id: null,
      ...NO_CLIENT_PERMISSIONS,
    };
    this.applyStagingConfig(config, input);
    this.tables.stagingConfigs[config.staging_config_id] = config;
    return config;
  }

  /** update_staging_config: the fields sent change; the (zone, image) pair stays unique. */
  updateStagingConfig(id: unknown, input: StagingConfigInput): StagingConfigRecord {
    const config = this.requireStagingConfig(id);
    this.applyStagingConfig(config, input);
    return config;
  }

  private applyStagingConfig(config: StagingConfigRecord, input: StagingConfigInput): void {
    const zone = this.deps.servers.zone(input.zone_id !== undefined ? input.zone_id : config.zone_id);
    if (!zone) throw new UnknownObject(`Invalid Zone ID (${String(input.zone_id ?? "")})`);
    const image = this.deps.images.image(input.image_id !== undefined ? input.image_id : config.image_id);
    if (!image) throw new UnknownObject(`Invalid Image ID (${String(input.image_id ?? "")})`);
    const clash = this.all().find((c) => c.zone_id === zone.zone_id && c.image_id === image.image_id && c.staging_config_id !== config.staging_config_id);
    if (clash)
      throw new AlreadyExists(`A staging config for zone (${zone.zone_name}) and image (${image.friendly_name}) already exists (${clash.staging_config_id})`);
    const { zone_id: _z, image_id: _i, ...rest } = input;
    Object.assign(config, definedOnly(rest), { zone_id: zone.zone_id, image_id: image.image_id });
    // The emulator stages sessions at once: the pool is always full.
    config.num_current_sessions = config.num_sessions;
  }

  /** delete_staging_config: by id. */
  deleteStagingConfig(id: unknown): void {
    const config = this.requireStagingConfig(id);
    delete this.tables.stagingConfigs[config.staging_config_id];
  }

  /** Drop the staging configs of a deleted image (product mode's delete_image), as the product's foreign key cascades. */
  forgetImage(imageId: string): void {
    for (const c of this.all()) if (c.image_id === imageId) delete this.tables.stagingConfigs[c.staging_config_id];
  }
}
