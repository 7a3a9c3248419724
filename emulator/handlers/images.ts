/**
 * Images and session recordings: the spec's reads, and in product mode the product's image
 * operations (get_image, create_image, update_image, delete_image; 1.15 decompile, admin_api.py),
 * which refuse with HTTP 200 and an `error_message`, as the product's admin operations do.
 */
import { z } from "zod";
import { IMAGE_COMPUTE_SETTINGS } from "../../permissions/kinds";
import { MissingParameters, PermissionRefused115, RefusedWith200, UnhandledException } from "../errors";
import { IMAGE, RECORDING, RECORDING_METADATA } from "../fields";
import { PRODUCT_IMAGE, PRODUCT_IMAGE_ITEM } from "../product-fields";
import { MASK, productSettingsOf, type ImageRecord, type RecordingRecord, type Store } from "../store";
import { databaseId } from "../models/common";
import { bool, int, parse, type Call, type Handler } from "./common";
import { readImageSettings } from "./image-settings";

/** The default profile mount of an image with a persistent profile path (1.15's data model). */
const PERSISTENT_PROFILE_MOUNT = { mode: "rw", bind: "/home/kasm-user", required: true, gid: 1000, uid: 1000 };

/** The spec's image record's values: with its zone name, its (empty) attribute list, and the registry password masked. */
function imageValues(store: Store, image: ImageRecord) {
  return {
    image_id: image.image_id,
    name: image.name,
    friendly_name: image.friendly_name,
    description: image.description,
    enabled: image.enabled,
    available: image.available,
    memory: image.memory,
    cores: image.cores,
    cpu_allocation_method: image.cpu_allocation_method,
    x_res: image.x_res,
    y_res: image.y_res,
    ctr_registry: image.ctr_registry,
    ctr_user: image.ctr_user,
    // A secret: shown masked when set, as the product's data model sanitises it; never in clear.
    ctr_token: image.ctr_token ? MASK : image.ctr_token,
    hash: image.hash,
    volume_mappings: image.volume_mappings,
    run_config: image.run_config,
    persistent_profile_config: image.persistent_profile_path ? { [image.persistent_profile_path]: PERSISTENT_PROFILE_MOUNT } : image.persistent_profile_config,
    persistent_profile_path: image.persistent_profile_path,
    exec_config: image.exec_config,
    imageAttributes: [],
    restrict_to_network: image.restrict_to_network,
    restrict_to_zone: image.restrict_to_zone,
    restrict_to_server: image.restrict_to_server,
    zone_id: image.zone_id,
    zone_name: image.zone_id ? (store.servers.zone(image.zone_id)?.zone_name ?? null) : null,
    server_id: image.server_id,
    network_name: image.network_name,
    image_src: image.image_src,
  };
}

/** An image as the spec's get_images shows it. */
function imageJson(store: Store, image: ImageRecord, observedFields: boolean) {
  return IMAGE.form(imageValues(store, image), observedFields);
}

/** The values of an image in product mode: the spec's record and 1.15's fields beyond it (no filter policies are modelled). */
function productImageValues(store: Store, image: ImageRecord) {
  const product = productSettingsOf(image);
  return {
    ...imageValues(store, image),
    ...product,
    filter_policy_id: null,
    filter_policy_name: null,
    default_category: product.categories[0] ?? null,
  };
}

/** An image as product mode's get_image, create_image and update_image answer it. */
export function productImageJson(store: Store, image: ImageRecord, observedFields: boolean) {
  return PRODUCT_IMAGE.form(productImageValues(store, image), observedFields);
}

/** get_images: the spec's records, or in product mode 1.15's, each with its server's hostname and its pool's name. */
const getImages: Handler = ({ store, observedFields, apiNames }) => ({
  images: store.images.all().map((image) => {
    if (apiNames !== "product") return imageJson(store, image, observedFields);
    const server = image.server_id ? store.servers.server(image.server_id) : undefined;
    const pool = productSettingsOf(image).server_pool_id;
    const poolName = pool ? store.servers.serverPool(pool)?.server_pool_name : undefined;
    return PRODUCT_IMAGE_ITEM.form(
      {
        ...productImageValues(store, image),
        server: server ? { hostname: server.hostname } : {},
        server_pool: poolName === undefined ? {} : { server_pool_name: poolName },
      },
      observedFields,
    );
  }),
});

// --- the product's image operations ---------------------------------------------------------------

/** `target_image` as an object (an absent or null one reads as missing, as 1.15's `if target_image`), or 400 naming what was sent. */
function targetImage(body: Record<string, unknown>): Record<string, unknown> | undefined {
  return parse(z.record(z.string(), z.unknown()).nullable().optional(), body.target_image, "target_image") ?? undefined;
}

/**
 * get_image: `target_image.image_id`, else `image_id` at the top level (a Terraform client sends
 * both forms). No source shows its refusals: the emulator answers as delete_image does (an id the
 * database cannot read fails the call, an unknown one is refused with HTTP 200).
 */
const getImage: Handler = ({ body, store, observedFields }) => {
  const id = targetImage(body)?.image_id ?? body.image_id;
  if (id === undefined) throw new RefusedWith200("Invalid Request: Missing required parameters");
  const image = store.images.image(databaseId(id));
  if (!image) throw new RefusedWith200(`Image(${String(id)}) Does not Exist`);
  return { image: productImageJson(store, image, observedFields) };
};

/** create_image: any non-empty `target_image`; nothing is required in it (1.15). */
const createImage: Handler = ({ body, store, observedFields }) => {
  const target = targetImage(body);
  if (!target || Object.keys(target).length === 0) throw new RefusedWith200("Invalid Request: Missing required parameters");
  const plan = store.images.planSettings(undefined, readImageSettings(target, "create_image"));
  return { image: productImageJson(store, store.images.commit(plan), observedFields) };
};

/**
 * update_image: `target_image` is the whole record (see ImagesModel.planSettings for what a field
 * left out does). For a key without both Images Modify and Images Modify Resources, 1.15 reads
 * every compute-related field from `target_image` (one left out fails the call: an unhandled
 * KeyError, HTTP 500) and refuses a value that differs from the stored one; with both, it checks
 * none. All before anything is stored.
 */
const updateImage: Handler = ({ body, store, caller, observedFields }) => {
  const target = targetImage(body);
  if (!target || !("image_id" in target)) throw new RefusedWith200("Invalid Request: Missing required parameters");
  const image = store.images.imageToUpdate(target.image_id);
  const holdsBoth = caller.has("Images Modify") && caller.has("Images Modify Resources");
  if (!holdsBoth && IMAGE_COMPUTE_SETTINGS.some((field) => !(field in target))) throw new UnhandledException();
  const settings = readImageSettings(target, "update_image");
  caller.require(
    "update_image",
    { changesImageResources: store.images.changesComputeFields(image, settings) },
    () => new PermissionRefused115(200, "User (None) is not authorized to make these changes to the image."),
  );
  return { image: productImageJson(store, store.images.commit(store.images.planSettings(image, settings)), observedFields) };
};

/** delete_image: `target_image.image_id`; answers `{}`. */
const deleteImage: Handler = ({ body, store }) => {
  const target = targetImage(body);
  if (!target || !("image_id" in target)) throw new RefusedWith200("Invalid Request: Missing required parameters");
  store.images.deleteImage(target.image_id);
  return {};
};

/** The fixed page size of get_session_recordings. */
const RECORDINGS_PER_PAGE = 5;

function recordingJson(r: RecordingRecord, baseUrl: string, withDownloadLink: boolean, observedFields: boolean) {
  return RECORDING.form(
    {
      recording_id: r.recording_id,
      account_id: r.account_id,
      session_recording_url: `${baseUrl}/recordings/${r.ws_id}/${r.recording_id}.webm`,
      session_recording_metadata: RECORDING_METADATA.form({ duration: r.duration, thumbnail: "", timestamp: r.timestamp }, observedFields),
      session_recording_download_url: withDownloadLink
        ? `${baseUrl}/recordings/${r.ws_id}/${r.recording_id}.webm?preauth=${r.recording_id.slice(0, 16)}`
        : undefined,
    },
    observedFields,
  );
}

const getSessionRecordings: Handler = ({ body, store, baseUrl, observedFields }: Call) => {
  const req = parse(
    z.object({
      target_ws_id: z.string().optional(),
      preauth_download_link: bool.optional(),
      page: int.refine((n) => n >= 1, "pages start at 1").optional(),
    }),
    body,
    "",
  );
  if (!req.target_ws_id) throw new MissingParameters();
  const wsId = store.sessions.session(req.target_ws_id)?.ws_id ?? req.target_ws_id.replace(/-/g, "").toLowerCase();
  const all = store.sessions.recordingsOf(wsId);
  const page = req.page ?? 1;
  const items = all.slice((page - 1) * RECORDINGS_PER_PAGE, page * RECORDINGS_PER_PAGE);
  return {
    session_recordings: items.map((r) => recordingJson(r, baseUrl, req.preauth_download_link ?? false, observedFields)),
    items: all.length,
    page,
    per_page: RECORDINGS_PER_PAGE,
    total_duration: all.reduce((sum, r) => sum + r.duration, 0),
  };
};

const getSessionsRecordings: Handler = ({ body, store, baseUrl, observedFields }: Call) => {
  const req = parse(z.object({ target_ws_ids: z.array(z.string()).optional(), preauth_download_link: bool.optional() }), body, "");
  if (!req.target_ws_ids) throw new MissingParameters();
  const ws_sessions: Record<string, { session_recordings: unknown[] }> = {};
  for (const raw of req.target_ws_ids) {
    const wsId = store.sessions.session(raw)?.ws_id ?? raw.replace(/-/g, "").toLowerCase();
    ws_sessions[wsId] = {
      session_recordings: store.sessions.recordingsOf(wsId).map((r) => recordingJson(r, baseUrl, req.preauth_download_link ?? false, observedFields)),
    };
  }
  return { ws_sessions };
};

/** The handlers of this area, by operation. */
export const imageHandlers = {
  get_images: getImages,
  get_image: getImage,
  create_image: createImage,
  update_image: updateImage,
  delete_image: deleteImage,
  get_session_recordings: getSessionRecordings,
  get_sessions_recordings: getSessionsRecordings,
} satisfies Record<string, Handler>;
