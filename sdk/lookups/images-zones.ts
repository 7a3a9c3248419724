/** Lookups of images, deployment zones and servers. */
import * as pulumi from "@pulumi/pulumi";
import { connectionName } from "../connection";
import { declaredWorkspace, type Workspace } from "../workspace";
import { named, outputOf, recordSecrets, single, withoutSecrets, withSecretOutputs } from "./common";
import type { Api, Camelized, InputArgs, LookupOptions, WithoutSecrets, WithSecretOutputs } from "./common";

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

type ImageRecord = Camelized<Awaited<ReturnType<Api["images"]["getImages"]>>[number]>;
type ZoneRecord = Camelized<Awaited<ReturnType<Api["zones"]["getZones"]>>[number]>;
type ServerRecord = Camelized<Awaited<ReturnType<Api["servers"]["getServers"]>>>;

const IMAGE_SECRETS = recordSecrets<ImageRecord, ImageSecrets>({ ctrToken: true });
const ZONE_SECRETS = recordSecrets<ZoneRecord, ZoneSecrets>({ cloudSecretAccessKey: true });
const SERVER_SECRETS = recordSecrets<ServerRecord, ServerSecrets>({
  connectionPassword: true,
  connectionPrivateKey: true,
  connectionPassphrase: true,
  connectionInfo: true,
  registrationJwt: true,
});

/** An image, as {@link getImage} and {@link getImages} return it: without {@link ImageSecrets}. */
export type Image = WithoutSecrets<ImageRecord, ImageSecrets>;
/** An image, as {@link getImageOutput} and {@link getImagesOutput} return it: {@link ImageSecrets} as secret Outputs. */
export type ImageWithSecrets = WithSecretOutputs<ImageRecord, ImageSecrets>;
/** A zone, as {@link getZone} and {@link getZones} return it: without {@link ZoneSecrets}. */
export type Zone = WithoutSecrets<ZoneRecord, ZoneSecrets>;
/** A zone, as {@link getZoneOutput} and {@link getZonesOutput} return it: {@link ZoneSecrets} as secret Outputs. */
export type ZoneWithSecrets = WithSecretOutputs<ZoneRecord, ZoneSecrets>;
/** A server, as {@link getServer} returns it: without {@link ServerSecrets}. */
export type Server = WithoutSecrets<ServerRecord, ServerSecrets>;
/** A server, as {@link getServerOutput} returns it: {@link ServerSecrets} as secret Outputs. */
export type ServerWithSecrets = WithSecretOutputs<ServerRecord, ServerSecrets>;

// --- images --------------------------------------------------------------------------------------

const fetchImages = named("getImages", async (_args: object, client) => {
  return client.images.getImages();
});

/** Every image. Leaves out {@link ImageSecrets} (`ctrToken`); {@link getImagesOutput} has them as secrets. */
export async function getImages(options?: LookupOptions): Promise<Image[]> {
  return (await fetchImages({}, options)).map((i) => withoutSecrets(i, IMAGE_SECRETS));
}

/** {@link getImages} as an Output; {@link ImageSecrets} (`ctrToken`) come as secret Outputs. */
export function getImagesOutput(options?: LookupOptions): pulumi.Output<ImageWithSecrets[]> {
  return outputOf(fetchImages, (images) => images.map((i) => withSecretOutputs(i, IMAGE_SECRETS)))({}, options);
}

/** Arguments of {@link getImage}: the image name (`kasmweb/chrome:1.16.0`) or its friendly name (`Chrome`). */
export type GetImageArgs = { name: string; friendlyName?: undefined } | { friendlyName: string; name?: undefined };

const fetchImage = named("getImage", async (args: GetImageArgs, _client, options) => {
  const images = await fetchImages({}, options);
  const found = images.filter((i) => (args.name !== undefined ? i.name === args.name : i.friendly_name === args.friendlyName));
  return single(found, `image ${JSON.stringify(args.name ?? args.friendlyName)}`);
});

/** One image, by name or friendly name. Leaves out {@link ImageSecrets} (`ctrToken`). */
export async function getImage(args: GetImageArgs, options?: LookupOptions): Promise<Image> {
  return withoutSecrets(await fetchImage(args, options), IMAGE_SECRETS);
}

/**
 * {@link getImage} taking Inputs; {@link ImageSecrets} (`ctrToken`) come as secret Outputs. An
 * image this program declares as a {@link Workspace} (on the same connection, its names given as
 * plain text) is looked up once the workspace exists: in a preview that creates it, the answer is
 * unknown rather than "not found". Its id is `workspace.imageId` all the same.
 */
export function getImageOutput(args: InputArgs<GetImageArgs>, options?: LookupOptions): pulumi.Output<ImageWithSecrets> {
  const lookup = outputOf(fetchImage, (image) => withSecretOutputs(image, IMAGE_SECRETS));
  return pulumi.output(args).apply((resolved) => {
    const workspace = declaredWorkspace(connectionName(options?.connection), resolved as GetImageArgs);
    // The lookup waits for the declared workspace: unknown while the preview has not created it.
    return workspace ? workspace.imageId.apply(() => lookup(args, options)) : lookup(args, options);
  }) as pulumi.Output<ImageWithSecrets>;
}

// --- zones ---------------------------------------------------------------------------------------

const fetchZones = named("getZones", async (_args: object, client) => {
  return client.zones.getZones({ brief: false });
});

/** Every deployment zone. Leaves out {@link ZoneSecrets} (`cloudSecretAccessKey`). */
export async function getZones(options?: LookupOptions): Promise<Zone[]> {
  return (await fetchZones({}, options)).map((z) => withoutSecrets(z, ZONE_SECRETS));
}

/** {@link getZones} as an Output; {@link ZoneSecrets} (`cloudSecretAccessKey`) come as secret Outputs. */
export function getZonesOutput(options?: LookupOptions): pulumi.Output<ZoneWithSecrets[]> {
  return outputOf(fetchZones, (zones) => zones.map((z) => withSecretOutputs(z, ZONE_SECRETS)))({}, options);
}

const fetchZone = named("getZone", async (args: { name: string }, _client, options) => {
  return single(
    (await fetchZones({}, options)).filter((z) => z.zone_name === args.name),
    `zone ${JSON.stringify(args.name)}`,
  );
});

/** One zone, by name. Leaves out {@link ZoneSecrets} (`cloudSecretAccessKey`). */
export async function getZone(args: { name: string }, options?: LookupOptions): Promise<Zone> {
  return withoutSecrets(await fetchZone(args, options), ZONE_SECRETS);
}

/** {@link getZone} taking Inputs; {@link ZoneSecrets} (`cloudSecretAccessKey`) come as secret Outputs. */
export const getZoneOutput: (args: InputArgs<{ name: string }>, options?: LookupOptions) => pulumi.Output<ZoneWithSecrets> = outputOf(fetchZone, (zone) =>
  withSecretOutputs(zone, ZONE_SECRETS),
);

// --- servers -------------------------------------------------------------------------------------

const fetchServer = named("getServer", async (args: { serverId: string }, client) => {
  return client.servers.getServers({ server_id: args.serverId });
});

/**
 * One server, by id. Leaves out {@link ServerSecrets} (`connectionPassword`,
 * `connectionPrivateKey`, `connectionPassphrase`, `connectionInfo`, `registrationJwt`);
 * {@link getServerOutput} has them as secrets.
 */
export async function getServer(args: { serverId: string }, options?: LookupOptions): Promise<Server> {
  return withoutSecrets(await fetchServer(args, options), SERVER_SECRETS);
}

/** {@link getServer} taking Inputs; {@link ServerSecrets} come as secret Outputs. */
export const getServerOutput: (args: InputArgs<{ serverId: string }>, options?: LookupOptions) => pulumi.Output<ServerWithSecrets> = outputOf(
  fetchServer,
  (server) => withSecretOutputs(server, SERVER_SECRETS),
);
