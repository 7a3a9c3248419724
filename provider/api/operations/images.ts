/** Operations of the images area. */
import { z } from "zod";
import { Image } from "../schemas/images";
import type { KasmApi } from "../transport";

/** List the workspace images (`get_images`; needs Images View). */
export async function getImages(api: KasmApi): Promise<Image[]> {
  return (await api.transport.call("get_images", {}, z.object({ images: z.array(Image) }))).images;
}
