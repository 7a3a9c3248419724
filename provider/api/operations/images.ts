/**
 * Operations of the images area: list the workspace images; and, on a released Kasm (`apiNames`
 * `product`), create, read, change and delete one (which groups may launch one: groups.ts). The shapes
 * of the product's operations are in `schemas/images.ts`, with their sources.
 */
import { z } from "zod";
import { createOnce, deleteOnce } from "../retry";
import { sameId } from "../schemas/common";
import { errorForStatus } from "../errors/classify";
import { Image, ProductImage, Registry, registryUrl, type ImageUpdate, type NewImage, type NewRegistry } from "../schemas/images";
import type { KasmApi } from "../transport";

const ImageAnswer = z.object({ image: ProductImage });

/** List the workspace images (`get_images`; needs Images View). */
export async function getImages(api: KasmApi): Promise<Image[]> {
  return (await api.transport.call("get_images", {}, z.object({ images: z.array(Image) }))).images;
}

/**
 * One image (`get_image`; a product operation, needs Images View). The public clients send the id
 * both at the top level and as `target_image`: both are sent, so that either reading finds it.
 * No source shows 1.15.0 serving it (its API server has no such operation): the kinds read an
 * image through {@link findImageById}, which lists them.
 *
 * @throws {@link KasmNotFoundError} when Kasm has no image of that id.
 */
export async function getImage(api: KasmApi, params: { image_id: string }): Promise<ProductImage> {
  return (await api.transport.call("get_image", { image_id: params.image_id, target_image: { image_id: params.image_id } }, ImageAnswer)).image;
}

/** The images with the product's fields (`get_images` read as a released Kasm answers it: see {@link ProductImage}). */
export async function getProductImages(api: KasmApi): Promise<ProductImage[]> {
  return (await api.transport.call("get_images", {}, z.object({ images: z.array(ProductImage) }))).images;
}

/** The image with this id (any spelling), or `undefined`: read through `get_images`, which every release serves. */
export async function findImageById(api: KasmApi, imageId: string): Promise<ProductImage | undefined> {
  return (await getProductImages(api)).find((image) => sameId(image.image_id, imageId));
}

/** The image of this name and friendly name (the pair a person tells images apart by), or `undefined`. */
export async function findImage(api: KasmApi, key: { name: string; friendly_name: string }): Promise<ProductImage | undefined> {
  return (await getProductImages(api)).find((image) => image.name === key.name && image.friendly_name === key.friendly_name);
}

/**
 * Create an image (`create_image`; a product operation, needs Images Create, and Images View for
 * the lookups). Never creates it twice: after a failure that leaves the outcome unknown, an image
 * of that name and friendly name is looked up and taken if the failed attempt created it. Kasm
 * allows two images of one name and friendly name, so the images of that pair are listed before the
 * first attempt, and one of them is never taken for this create's.
 */
export async function createImage(api: KasmApi, image: NewImage): Promise<ProductImage> {
  const { transport } = api;
  const twins = async () => (await getProductImages(api)).filter((other) => other.name === image.name && other.friendly_name === image.friendly_name);
  const before = new Set((await twins()).map((other) => other.image_id));
  return createOnce(transport, "create_image", async () => (await transport.call("create_image", { target_image: image }, ImageAnswer)).image, {
    find: async () => (await twins()).find((other) => !before.has(other.image_id)),
  });
}

/**
 * Change an image (`update_image`; a product operation, needs Images Modify, and Images Modify
 * Resources for its compute fields). The public clients send the whole record: so does the caller.
 */
export async function updateImage(api: KasmApi, update: ImageUpdate): Promise<ProductImage> {
  return (await api.transport.call("update_image", { target_image: update }, ImageAnswer)).image;
}

/**
 * Delete an image (`delete_image`; a product operation, needs Images Delete). The product refuses
 * an image that a session or a casting config uses. If a retried attempt answers that the image
 * does not exist, an earlier attempt deleted it: done.
 */
export async function deleteImage(api: KasmApi, params: { image_id: string }): Promise<void> {
  await deleteOnce(api.transport, "delete_image", { target_image: { image_id: params.image_id } });
}

// --- workspace registries (the product's; shapes in schemas/images.ts) -------------------------------

const RegistryAnswer = z.object({ registry: Registry });

/** The workspace registries (`get_registries`; a product operation, needs Registries View). */
export async function getRegistries(api: KasmApi): Promise<Registry[]> {
  return (await api.transport.call("get_registries", {}, z.object({ registries: z.array(Registry).optional() }))).registries ?? [];
}

/** The registry with this id (any spelling), or `undefined`. */
export async function findRegistryById(api: KasmApi, registryId: string): Promise<Registry | undefined> {
  return (await getRegistries(api)).find((registry) => sameId(registry.registry_id, registryId));
}

/** The registry at this URL (compared with a slash at its end), or `undefined`. */
export async function findRegistry(api: KasmApi, url: string): Promise<Registry | undefined> {
  const wanted = registryUrl(url);
  return (await getRegistries(api)).find((registry) => registryUrl(registry.registry_url) === wanted);
}

/**
 * Add a registry (`create_registry`; a product operation, needs Registries Create): Kasm fetches
 * its `versions.txt` and `1.0/list.json` from the URL. `channel` is sent only when given (1.16's).
 * Never adds it twice: after a failure that leaves the outcome unknown, the registry is looked up
 * by its URL.
 */
export async function createRegistry(api: KasmApi, registry: NewRegistry): Promise<Registry> {
  const { transport } = api;
  const body = { registry: registryUrl(registry.registry), ...(registry.channel !== undefined ? { channel: registry.channel } : {}) };
  return createOnce(transport, "create_registry", async () => (await transport.call("create_registry", body, RegistryAnswer)).registry, {
    find: () => findRegistry(api, registry.registry),
  });
}

/**
 * Fetch a registry's list again (`update_registry`; needs Registries Modify). 1.15 nests what the
 * fetch answers in `registry`, its refusal too (`{registry: {error_message}}`, HTTP 200): read as
 * the refusal it is.
 */
export async function updateRegistry(api: KasmApi, params: { registry_id: string }): Promise<Registry> {
  const answer = await api.transport.call(
    "update_registry",
    { registry_id: params.registry_id },
    z.object({ registry: z.looseObject({ registry: Registry.optional(), error_message: z.string().optional() }) }),
  );
  const inner = answer.registry;
  if (inner.registry === undefined)
    throw errorForStatus({ operation: "update_registry", status: 200, errorMessage: inner.error_message ?? "no registry in the answer" });
  return inner.registry;
}

/** Switch a registry's automatic updates (`registry_auto_updates`; needs Registries Modify). */
export async function registryAutoUpdates(api: KasmApi, params: { registry_id: string; auto_updates: boolean }): Promise<Registry> {
  return (await api.transport.call("registry_auto_updates", params, RegistryAnswer)).registry;
}

/**
 * Delete a registry (`delete_registry`; needs Registries Delete). 1.15 reads `registry_id` at the
 * top level, the Terraform client sends `target_registry {registry_id}`: both are sent (a Kasm
 * ignores a field it does not read). 1.15 fails unhandled (HTTP 500) on an id it does not have:
 * callers look the registry up first.
 */
export async function deleteRegistry(api: KasmApi, params: { registry_id: string }): Promise<void> {
  await api.transport.call("delete_registry", { registry_id: params.registry_id, target_registry: { registry_id: params.registry_id } }, z.object({}).loose());
}
