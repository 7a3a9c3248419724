/**
 * `kasm.Workspace`: a workspace image in Kasm's catalogue, managed through a released Kasm's image operations.
 */
import * as pulumi from "@pulumi/pulumi";
import { SECRET_INPUTS } from "../catalogue/kinds";
import { KasmResource, type ComputedOutputs, type InputOutputs } from "./provider";
import { connectionName, type ConnectionArgs } from "./connection";
import type { WorkspaceOutputs } from "../provider/resources/workspace";

/**
 * The arguments of a {@link Workspace}. Inputs left out are not managed: Kasm keeps whatever they
 * are. Every field changes in place. The compute-related ones (`cores`, `memory`, `gpuCount`,
 * `requireGpu`, `cpuAllocationMethod`, `uncompressedSizeMb`, the registry and its credentials,
 * `volumeMappings`, `runConfig`, `execConfig`) need the API key to hold Images Modify Resources on
 * top of Images Modify.
 */
export interface WorkspaceArgs extends ConnectionArgs {
  /** The container image and tag Kasm pulls, such as `kasmweb/chrome:1.16.0`. */
  readonly name: pulumi.Input<string>;
  /** The name users see in the workspace list. */
  readonly friendlyName: pulumi.Input<string>;
  /** Free text shown with the workspace. */
  readonly description?: pulumi.Input<string>;
  /** The categories the workspace is listed under (each one line). */
  readonly categories?: pulumi.Input<pulumi.Input<string>[]>;
  /** The thumbnail's path or URL, such as `img/thumbnails/chrome.png`. */
  readonly imageSrc?: pulumi.Input<string>;
  /** Whether users may launch it. */
  readonly enabled?: pulumi.Input<boolean>;
  /** CPU cores given to each session (more than 0; fractions allowed). */
  readonly cores?: pulumi.Input<number>;
  /** Memory given to each session, in bytes (2 GB is 2000000000). */
  readonly memory?: pulumi.Input<number>;
  /** GPUs given to each session: a whole number, 0 or more. */
  readonly gpuCount?: pulumi.Input<number>;
  /** Whether a session may start only on an agent with a GPU. */
  readonly requireGpu?: pulumi.Input<boolean>;
  /** How cores are enforced: `Inherit`, `Quotas` or `Shares` in released Kasm. */
  readonly cpuAllocationMethod?: pulumi.Input<string>;
  /** The image's size once pulled, in MB. */
  readonly uncompressedSizeMb?: pulumi.Input<number>;
  /** `Container` for a container image (Kasm's default). */
  readonly imageType?: pulumi.Input<string>;
  /** The registry the image is pulled from, such as `https://index.docker.io/v1/`. */
  readonly registry?: pulumi.Input<string>;
  /** The registry user. A secret: wrapped with `pulumi.secret` and kept out of the state in plain text. */
  readonly registryUsername?: pulumi.Input<string>;
  /** The registry password or token. A secret; Kasm never shows it back, so refresh keeps the declared value. */
  readonly registryPassword?: pulumi.Input<string>;
  /** Docker run settings that override Kasm's, such as `{ hostname: "kasm", environment: { TZ: "UTC" } }`. */
  readonly runConfig?: pulumi.Input<Record<string, unknown>>;
  /** Commands run in the session, such as `{ first_launch: { cmd: "google-chrome" } }`. */
  readonly execConfig?: pulumi.Input<Record<string, unknown>>;
  /** Host paths mounted into each session, by host path. */
  readonly volumeMappings?: pulumi.Input<Record<string, unknown>>;
  /** Whether sessions start only in {@link WorkspaceArgs.zoneId}'s zone. */
  readonly restrictToZone?: pulumi.Input<boolean>;
  /** The zone sessions are restricted to (32 hex digits or a hyphenated UUID). */
  readonly zoneId?: pulumi.Input<string>;
  /** Whether sessions start only on {@link WorkspaceArgs.serverId}'s server. */
  readonly restrictToServer?: pulumi.Input<boolean>;
  /** The server sessions are restricted to (32 hex digits or a hyphenated UUID). */
  readonly serverId?: pulumi.Input<string>;
  /** Whether sessions join only the networks of {@link WorkspaceArgs.restrictNetworkNames}. */
  readonly restrictToNetwork?: pulumi.Input<boolean>;
  /** The Docker networks sessions may join, when restricted to networks. */
  readonly restrictNetworkNames?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Take over the existing image with this container name and friendly name (and bring it to the
   * declared state) instead of creating a second one. Default: false.
   */
  readonly adopt?: pulumi.Input<boolean>;
}

/**
 * A workspace in Kasm's catalogue: a container image offered to users. The API documentation has
 * no operation that creates or changes one; a released Kasm (1.15 or later) does, so this kind
 * needs `kasm:apiNames` `product`; with `spec` (the default) preview refuses it, naming the
 * setting. After each write the provider reads the image back and fails, naming the field, when
 * Kasm does not show a declared value. Kasm refuses to delete an image a session or a casting
 * config uses. Needs Images Create, View, Modify and Delete, and Images Modify Resources for the
 * compute-related fields.
 *
 * @example
 * ```ts
 * const chrome = new kasm.Workspace("chrome", {
 *   name: "kasmweb/chrome:1.16.0",
 *   friendlyName: "Chrome",
 *   categories: ["Browsers"],
 *   cores: 2,
 *   memory: 2_768_000_000,
 * });
 * new kasm.GroupWorkspace("support-chrome", { groupId: support.groupId, imageId: chrome.imageId });
 * ```
 */
export class Workspace extends KasmResource<WorkspaceArgs, WorkspaceOutputs> {
  protected static override readonly kind = "Workspace";

  constructor(name: string, args: WorkspaceArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts, { computed: { imageId: true, available: true }, secrets: SECRET_INPUTS.Workspace });
    // Names given as plain text are known now: a lookup of one waits for this workspace (see declaredWorkspace).
    if (typeof args.name === "string" && typeof args.friendlyName === "string")
      declaredWorkspaces.push({ connection: connectionName(args.connection), name: args.name.trim(), friendlyName: args.friendlyName.trim(), workspace: this });
  }
}

/** A workspace this program declares, by the installation and the names a lookup finds it by. */
interface DeclaredWorkspace {
  readonly connection: string | undefined;
  readonly name: string;
  readonly friendlyName: string;
  readonly workspace: Workspace;
}

/**
 * The workspaces this program declares: a program declares its resources in one process, so this
 * list is that program's, as Pulumi's own list of registered resources is.
 */
const declaredWorkspaces: DeclaredWorkspace[] = [];

/**
 * The workspace this program declares on `connection` with this container name or friendly name,
 * if any: a lookup of it (`getImageOutput`) waits for it to exist, so that a preview that creates
 * it answers unknown instead of failing to find it.
 */
export function declaredWorkspace(connection: string | undefined, by: { readonly name?: string; readonly friendlyName?: string }): Workspace | undefined {
  return declaredWorkspaces.find(
    (declared) => declared.connection === connection && (by.name !== undefined ? declared.name === by.name : declared.friendlyName === by.friendlyName),
  )?.workspace;
}

/** The outputs of a {@link Workspace}: computed ({@link WorkspaceOutputs}) and mirroring its arguments ({@link WorkspaceArgs}). */
export interface Workspace extends ComputedOutputs<WorkspaceOutputs>, InputOutputs<WorkspaceArgs> {}
