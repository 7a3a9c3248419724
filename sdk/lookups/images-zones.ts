/** Lookups of images, deployment zones and servers. */
import * as pulumi from "@pulumi/pulumi";
import type { GetImageArgs } from "../../provider/lookups/images-zones";
import {
  IMAGE_SECRETS,
  SERVER_SECRETS,
  ZONE_SECRETS,
  type ImageRecord,
  type ImageSecrets,
  type ServerRecord,
  type ServerSecrets,
  type ZoneRecord,
  type ZoneSecrets,
} from "../../provider/lookups/secrets";
import { connectionName } from "../connection";
import { declaredOf } from "../provider";
import type { Workspace, WorkspaceArgs } from "../kinds";
import { named, outputOf, withoutSecrets, withSecretOutputs } from "./common";
import type { InputArgs, LookupOptions, WithoutSecrets, WithSecretOutputs } from "./common";

export type { GetImageArgs, ImageSecrets, ServerSecrets, ZoneSecrets };

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

const fetchImages = named("getImages");

/** Every image. Leaves out {@link ImageSecrets} (`ctrToken`); {@link getImagesOutput} has them as secrets. */
export async function getImages(options?: LookupOptions): Promise<Image[]> {
  return (await fetchImages({}, options)).map((i) => withoutSecrets(i, IMAGE_SECRETS));
}

/** {@link getImages} as an Output; {@link ImageSecrets} (`ctrToken`) come as secret Outputs. */
export function getImagesOutput(options?: LookupOptions): pulumi.Output<ImageWithSecrets[]> {
  return outputOf(fetchImages, (images) => images.map((i) => withSecretOutputs(i, IMAGE_SECRETS)))({}, options);
}

const fetchImage = named("getImage");

/**
 * One image, by name or friendly name. Leaves out {@link ImageSecrets} (`ctrToken`). An image with
 * no name (a link, a server or a server pool workspace, which Kasm stores with `name` null) is
 * found by its friendly name only; {@link getImages} lists it with `name: null`.
 */
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

/**
 * The workspace this program declares on `connection` with this container name or friendly name
 * (given as plain text), if any: a lookup of it waits for it to exist, so that a preview that
 * creates it answers unknown instead of failing to find it.
 */
function declaredWorkspace(connection: string | undefined, by: { readonly name?: string; readonly friendlyName?: string }): Workspace | undefined {
  const matches = (args: WorkspaceArgs) =>
    typeof args.name === "string" &&
    typeof args.friendlyName === "string" &&
    (by.name !== undefined ? args.name.trim() === by.name : args.friendlyName.trim() === by.friendlyName);
  const found = declaredOf("Workspace").find((declared) => declared.connection === connection && matches(declared.args as WorkspaceArgs));
  return found?.resource as Workspace | undefined;
}

// --- zones ---------------------------------------------------------------------------------------

const fetchZones = named("getZones");

/** Every deployment zone. Leaves out {@link ZoneSecrets} (`cloudSecretAccessKey`). */
export async function getZones(options?: LookupOptions): Promise<Zone[]> {
  return (await fetchZones({}, options)).map((z) => withoutSecrets(z, ZONE_SECRETS));
}

/** {@link getZones} as an Output; {@link ZoneSecrets} (`cloudSecretAccessKey`) come as secret Outputs. */
export function getZonesOutput(options?: LookupOptions): pulumi.Output<ZoneWithSecrets[]> {
  return outputOf(fetchZones, (zones) => zones.map((z) => withSecretOutputs(z, ZONE_SECRETS)))({}, options);
}

const fetchZone = named("getZone");

/** One zone, by name. Leaves out {@link ZoneSecrets} (`cloudSecretAccessKey`). */
export async function getZone(args: { name: string }, options?: LookupOptions): Promise<Zone> {
  return withoutSecrets(await fetchZone(args, options), ZONE_SECRETS);
}

/** {@link getZone} taking Inputs; {@link ZoneSecrets} (`cloudSecretAccessKey`) come as secret Outputs. */
export const getZoneOutput: (args: InputArgs<{ name: string }>, options?: LookupOptions) => pulumi.Output<ZoneWithSecrets> = outputOf(fetchZone, (zone) =>
  withSecretOutputs(zone, ZONE_SECRETS),
);

// --- servers -------------------------------------------------------------------------------------

const fetchServer = named("getServer");

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
