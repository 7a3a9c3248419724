/** Lookups of images, deployment zones and servers. */
import { z } from "zod";
import { Image } from "../api/schemas/images";
import { Server } from "../api/schemas/servers";
import { Zone } from "../api/schemas/zones";
import { exactlyOneOf, noneFound, oneRecord, recordList, recordSecrets, single } from "./common";
import type { Api, Camelized } from "./common";

/** The secret fields of an image record. */
export interface ImageSecrets {
  /** The password or token of the image's container registry (`ctrUser`, its username, is kept). */
  readonly ctrToken?: string | null;
}

/** The secret fields of a zone record. */
export interface ZoneSecrets {
  /**
   * The secret access key of an auto-scaling zone's cloud account. Kasm documents it as masked;
   * a release that sends it must not have it written to the state.
   */
  readonly cloudSecretAccessKey?: string | null;
}

/** The secret fields of a server record. */
export interface ServerSecrets {
  /** The password Kasm uses for the server's connection (SSH, RDP, ...). */
  readonly connectionPassword?: string | null;
  /** The private key Kasm uses for the server's connection. */
  readonly connectionPrivateKey?: string | null;
  /** The passphrase of that private key. */
  readonly connectionPassphrase?: string | null;
  /** Free-form connection settings (such as RDP options), which may carry credentials. */
  readonly connectionInfo?: unknown;
  /** The token an agent registers itself with. */
  readonly registrationJwt?: string | null;
}

/** An image record, camelCased, secrets included. */
export type ImageRecord = Camelized<Awaited<ReturnType<Api["images"]["getImages"]>>[number]>;
/** A zone record, camelCased, secrets included. */
export type ZoneRecord = Camelized<Awaited<ReturnType<Api["zones"]["getZones"]>>[number]>;
/** A server record, camelCased, secrets included. */
export type ServerRecord = Camelized<Awaited<ReturnType<Api["servers"]["getServers"]>>>;

/** The secret fields of an image record, by name. */
export const IMAGE_SECRETS = recordSecrets<ImageRecord, ImageSecrets>({ ctrToken: "string" });
/** The secret fields of a zone record, by name. */
export const ZONE_SECRETS = recordSecrets<ZoneRecord, ZoneSecrets>({ cloudSecretAccessKey: "string" });
/** The secret fields of a server record, by name. */
export const SERVER_SECRETS = recordSecrets<ServerRecord, ServerSecrets>({
  connectionPassword: "string",
  connectionPrivateKey: "string",
  connectionPassphrase: "string",
  connectionInfo: "any",
  registrationJwt: "string",
});

const IMAGE = { schema: Image, name: "Image", secrets: IMAGE_SECRETS };
const ZONE = { schema: Zone, name: "Zone", secrets: ZONE_SECRETS };

/** Arguments of the getImage lookup: the image name (`kasmweb/chrome:1.16.0`) or its friendly name (`Chrome`). */
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
    description: "One image, by name or friendly name.",
    args: z
      .strictObject({
        name: z.string().optional().describe("The image's name, such as kasmweb/chrome:1.16.0."),
        friendlyName: z.string().optional().describe("The image's friendly name, such as Chrome."),
      })
      .superRefine(exactlyOneOf("name", "friendlyName")),
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
