/**
 * The records of the product's own image operations (product mode only), as fields.ts defines
 * the spec's: which fields each shows, in order. Sources: the 1.15 decompile's data model
 * (`data/model.py`, the Jsonable field lists of Image and GroupImage) and its get_images
 * (`admin_api.py`), beside the spec's image record (release 1.19).
 */
import { IMAGE } from "./fields";
import { WireRecord } from "./wire-record";

/**
 * The fields 1.15's image record has beyond the spec's (which has `network_name` beyond 1.15's):
 * a product-mode image carries both lists.
 */
const PRODUCT_IMAGE_EXTRA = [
  "restrict_network_names",
  "filter_policy_id",
  "filter_policy_name",
  "filter_policy_force_disabled",
  "session_time_limit",
  "categories",
  "default_category",
  "allow_network_selection",
  "require_gpu",
  "gpu_count",
  "hidden",
  "notes",
  "image_type",
  "server_pool_id",
  "link_url",
  "uncompressed_size_mb",
  "launch_config",
] as const;

/** An image as product mode answers it (get_image, create_image, update_image). */
export const PRODUCT_IMAGE = new WireRecord("image (product mode)", [...IMAGE.documented, ...PRODUCT_IMAGE_EXTRA]);

/** An image as product mode's get_images lists it: with the hostname of its server and the name of its pool (1.15's get_images). */
export const PRODUCT_IMAGE_ITEM = new WireRecord("image (product mode, get_images)", [...PRODUCT_IMAGE.documented, "server", "server_pool"]);

/** A group's authorisation to launch an image, as get_images_group lists it. */
export const PRODUCT_GROUP_IMAGE = new WireRecord("group image (get_images_group)", [
  "group_image_id",
  "group_id",
  "image_id",
  "image_name",
  "group_name",
  "image_friendly_name",
  "image_src",
]);
