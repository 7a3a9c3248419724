/**
 * Operations of the images area: list the workspace images; and, on a released Kasm (`apiNames`
 * `product`), create, read, change and delete one, and say which groups may launch it. The shapes
 * of the product's operations are in `schemas/images.ts`, with their sources.
 */
import { z } from "zod";
import { callCountingAsDone, createOnce, deleteOnce } from "../recovery";
import { Empty, sameId } from "../schemas/common";
import { GroupImage, Image, type ImageUpdate, type NewImage } from "../schemas/images";
import { KasmNotFoundError } from "../errors";
import type { KasmApi } from "../transport";

const ImageAnswer = z.object({ image: Image });

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
export async function getImage(api: KasmApi, params: { image_id: string }): Promise<Image> {
  return (await api.transport.call("get_image", { image_id: params.image_id, target_image: { image_id: params.image_id } }, ImageAnswer)).image;
}

/** The image with this id (any spelling), or `undefined`: read through `get_images`, which every release serves. */
export async function findImageById(api: KasmApi, imageId: string): Promise<Image | undefined> {
  return (await getImages(api)).find((image) => sameId(image.image_id, imageId));
}

/** The image of this name and friendly name (the pair a person tells images apart by), or `undefined`. */
export async function findImage(api: KasmApi, key: { name: string; friendly_name: string }): Promise<Image | undefined> {
  return (await getImages(api)).find((image) => image.name === key.name && image.friendly_name === key.friendly_name);
}

/**
 * Create an image (`create_image`; a product operation, needs Images Create). Never creates it
 * twice: after a failure that leaves the outcome unknown, the image of that name and friendly name
 * is looked up and taken if the failed attempt created it (Kasm allows two images of one name, so
 * the pair is the key).
 */
export async function createImage(api: KasmApi, image: NewImage): Promise<Image> {
  const { transport } = api;
  return createOnce(
    transport,
    "create_image",
    async () => (await transport.call("create_image", { target_image: image }, ImageAnswer)).image,
    { find: () => findImage(api, image) },
  );
}

/**
 * Change an image (`update_image`; a product operation, needs Images Modify, and Images Modify
 * Resources for its compute fields). The public clients send the whole record: so does the caller.
 */
export async function updateImage(api: KasmApi, update: ImageUpdate): Promise<Image> {
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

/** The images a group may launch (`get_images_group`; a product operation, needs Groups View). */
export async function getImagesGroup(api: KasmApi, params: { group_id: string }): Promise<GroupImage[]> {
  const answer = await api.transport.call("get_images_group", { target_group: { group_id: params.group_id } }, z.object({ images: z.array(GroupImage).default([]) }));
  return answer.images;
}

/** Whether the group may launch the image (read through {@link getImagesGroup}). */
export async function groupHasImage(api: KasmApi, params: { group_id: string; image_id: string }): Promise<boolean> {
  return (await getImagesGroup(api, params)).some((image) => sameId(image.image_id, params.image_id));
}

/** Let a group launch an image (`add_images_group`; a product operation, needs Groups Modify). */
export async function addImagesGroup(api: KasmApi, params: { group_id: string; image_id: string }): Promise<void> {
  await api.transport.call("add_images_group", groupImageBody(params), Empty);
}

/**
 * Stop a group launching an image (`remove_images_group`; same permission). If a retried attempt
 * answers that the group or the image does not exist, done.
 */
export async function removeImagesGroup(api: KasmApi, params: { group_id: string; image_id: string }): Promise<void> {
  await callCountingAsDone(api.transport, "remove_images_group", groupImageBody(params), Empty, (error) => error instanceof KasmNotFoundError);
}

function groupImageBody(params: { group_id: string; image_id: string }) {
  return { target_group: { group_id: params.group_id }, target_image: { image_id: params.image_id } };
}
