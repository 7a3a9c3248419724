/** Lookups of images, deployment zones and servers. */
import { z } from "zod";
import { Image } from "../api/schemas/images";
import { Server } from "../api/schemas/servers";
import { Zone } from "../api/schemas/zones";
import { noneFound, oneRecord, recordList, single } from "./common";
import { eitherKey } from "./arguments";
import { IMAGE_SECRETS, SERVER_SECRETS, ZONE_SECRETS } from "./secrets";

const IMAGE = { schema: Image, name: "Image", secrets: IMAGE_SECRETS };
const ZONE = { schema: Zone, name: "Zone", secrets: ZONE_SECRETS };

/**
 * Arguments of the getImage lookup: the image name (`kasmweb/chrome:1.16.0`) or its friendly name
 * (`Chrome`). An image with no name (a link, a server or a server pool workspace) is found by its
 * friendly name only.
 */
export type GetImageArgs = { name: string; friendlyName?: undefined } | { friendlyName: string; name?: undefined };

/** Arguments of the getZone lookup. */
export interface GetZoneArgs {
  name: string;
}

/** Arguments of the getServer lookup. */
export interface GetServerArgs {
  serverId: string;
}

const getImages = recordList({
  description: "Every image.",
  args: z.strictObject({}),
  record: IMAGE,
  list: "images",
  fetch: async (client) => client.images.getImages(),
});

const getZones = recordList({
  description: "Every deployment zone.",
  args: z.strictObject({}),
  record: ZONE,
  list: "zones",
  fetch: async (client) => client.zones.getZones({ brief: false }),
});

/** The lookups of images, zones and servers. */
export const IMAGE_ZONE_LOOKUPS = {
  getImages,

  getImage: oneRecord({
    description:
      "One image, by name or friendly name. An image with no name (a link, a server or a server pool workspace, which Kasm stores without one: its `name` is null) is found by its friendly name only.",
    args: eitherKey({
      name: z.string().optional().describe("The image's name, such as kasmweb/chrome:1.16.0: the container image it runs. No image without one matches."),
      friendlyName: z.string().optional().describe("The image's friendly name, such as Chrome."),
    }),
    record: IMAGE,
    async fetch(client, args: GetImageArgs) {
      const images = await getImages.fetch(client, {});
      const found = images.filter((i) => (args.name !== undefined ? i.name === args.name : i.friendly_name === args.friendlyName));
      return single(found, `image ${JSON.stringify(args.name ?? args.friendlyName)}`);
    },
  }),

  getZones,

  getZone: oneRecord({
    description: "One deployment zone, by name.",
    args: z.strictObject({ name: z.string().describe("The zone's name, such as default.") }),
    record: ZONE,
    async fetch(client, args: GetZoneArgs) {
      return single(
        (await getZones.fetch(client, {})).filter((zone) => zone.zone_name === args.name),
        `zone ${JSON.stringify(args.name)}`,
      );
    },
  }),

  getServer: oneRecord({
    description: "One server, by id.",
    args: z.strictObject({ serverId: z.string().describe("The server's id: 32 hex digits, or a hyphenated UUID.") }),
    record: { schema: Server, name: "Server", secrets: SERVER_SECRETS },
    fetch: async (client, args: GetServerArgs) => noneFound(client.servers.getServers({ server_id: args.serverId }), `server with id ${args.serverId}`),
  }),
};
