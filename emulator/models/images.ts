/**
 * Workspace images. The API only reads them; they come from the seed or the data file.
 */
import { AreaModel, byId, canonicalId, newId, orUnknown, type Table } from "./common";

/** A workspace image as stored: the wire's fields, ids canonical. */
export interface ImageRecord {
  image_id: string;
  name: string;
  friendly_name: string;
  description: string;
  enabled: boolean;
  available: boolean;
  memory: number;
  cores: number;
  cpu_allocation_method: string;
  x_res: number;
  y_res: number;
  ctr_registry: string | null;
  ctr_user: string | null;
  ctr_token: string | null;
  hash: string | null;
  volume_mappings: Record<string, unknown>;
  run_config: Record<string, unknown>;
  persistent_profile_config: Record<string, unknown>;
  persistent_profile_path: string | null;
  exec_config: Record<string, { cmd: string; environment?: Record<string, string> }>;
  restrict_to_network: boolean;
  restrict_to_zone: boolean;
  restrict_to_server: boolean;
  zone_id: string | null;
  server_id: string | null;
  network_name: string | null;
  image_src: string;
}

/** The part of the state this model owns. */
export interface ImagesTables {
  images: Table<ImageRecord>;
}

/** An image as a seed describes it; `zone_id` is the zone it is restricted to, if any. */
export interface ImageInput {
  image_id?: string;
  name: string;
  friendly_name?: string;
  description?: string;
  enabled?: boolean;
  memory?: number;
  cores?: number;
  zone_id?: string;
  exec_config?: ImageRecord["exec_config"];
}

/** The images and how they are found. */
export class ImagesModel extends AreaModel<ImagesTables> {
  /** Every image. */
  all(): ImageRecord[] {
    return Object.values(this.tables.images);
  }

  /** An image by id in either form; undefined when the id is malformed or unknown. */
  image(id: unknown): ImageRecord | undefined {
    return byId(this.tables.images, id);
  }

  /** An image an operation refers to, with the product's wording when it is unknown. */
  requireImage(id: unknown): ImageRecord {
    return orUnknown(this.image(id), id, (given) => `Invalid Image ID (${given})`);
  }

  /** The image named `name` (its Docker name), if any. */
  imageByName(name: string): ImageRecord | undefined {
    return this.all().find((im) => im.name === name);
  }

  /** Add a seeded image, with the product's defaults for what the seed leaves out. */
  addSeedImage(input: ImageInput): ImageRecord {
    const image_id = input.image_id ? canonicalId(input.image_id)! : newId();
    const image: ImageRecord = {
      image_id,
      name: input.name,
      friendly_name: input.friendly_name ?? input.name,
      description: input.description ?? "",
      enabled: input.enabled ?? true,
      available: true,
      memory: input.memory ?? 2768000000,
      cores: input.cores ?? 2,
      cpu_allocation_method: "Inherit",
      x_res: 800,
      y_res: 600,
      ctr_registry: null,
      ctr_user: null,
      ctr_token: null,
      hash: null,
      volume_mappings: {},
      run_config: {},
      persistent_profile_config: {},
      persistent_profile_path: null,
      exec_config: input.exec_config ?? {},
      restrict_to_network: false,
      restrict_to_zone: !!input.zone_id,
      restrict_to_server: false,
      zone_id: input.zone_id ?? null,
      server_id: null,
      network_name: null,
      image_src: `img/thumbnails/${input.name.replace(/[^a-z0-9]+/gi, "_")}.png`,
    };
    this.tables.images[image_id] = image;
    return image;
  }
}
