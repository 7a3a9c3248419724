/**
 * The program's workspace areas: the workspace images the installation offers, and which
 * groups may launch each. Apart from the other areas because both exist only in a released Kasm's
 * vocabulary, and because a workspace is written from the mapping of an image record the Workspace
 * kind compares on a take-over (`imageSettingsShown`, in the client, which the importer may use):
 * the first `up` finds each image as declared. Every image is taken over, those Kasm ships with
 * too: they are what the installation offers its users, nothing in Kasm's record tells a shipped
 * image from an added one, and a stack that left them out could not say by reference which groups
 * may launch them.
 */
import { imageSettingsShown, registryShown, type GroupImage, type GroupRecord, type Image, type Registry } from "../../provider/api";
import { camel } from "../names";
import { pairId } from "../../permissions/planned-calls";
import { groupImageName } from "../read";
import type { Area } from "./area";
import { rawId, setValues, type ProgramWriter, type Value } from "./writer";

// --- helpers -------------------------------------------------------------------------------------

/** A JSON value Kasm shows (a run config, an exec config) as a value of the program, its nulls kept. */
function jsonValue(value: unknown): Value {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(jsonValue);
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, jsonValue(v)]));
  return value as string | number | boolean;
}

/** The pair a Workspace is taken over by: its container name and its friendly name. */
const pairOf = (image: Image) => `${image.name ?? ""}\u0000${image.friendly_name ?? ""}`;

/**
 * Why an image cannot be declared as a Workspace, or undefined when it can. A workspace that runs
 * no container image of its own (a link, a server, a server pool: Kasm stores it without a name) is
 * not a Workspace, which declares a container image. A take-over finds the image by its container
 * name and friendly name, as sent (trimmed): both must be there, without surrounding spaces, and no
 * other image of the list may have the same two.
 */
function whyNotDeclared(image: Image, images: readonly Image[]): string | undefined {
  if (image.name === null)
    return "without a container image (a link, a server or a server pool workspace, which Kasm stores without a name), which a Workspace cannot declare";
  const names = [image.name, image.friendly_name ?? ""];
  if (names.some((name) => name.trim() === "")) return "without a container name or a friendly name, which a Workspace needs";
  if (names.some((name) => name !== name.trim())) return "with a name padded with spaces, which a take-over (sending the names trimmed) would not find";
  if (images.filter((other) => pairOf(other) === pairOf(image)).length > 1)
    return "with the container name and friendly name of another image, which a take-over could not tell apart";
  return undefined;
}

/** The values a Workspace declares for `image`: what Kasm shows, ids with their names beside them. */
function shownValues(image: Image): Record<string, Value> {
  const values: Record<string, Value> = {};
  for (const [key, value] of Object.entries(setValues(imageSettingsShown(image))))
    values[key] =
      key === "zoneId" ? rawId(String(value), image.zone_name ?? undefined) : key === "serverId" ? rawId(String(value), undefined) : jsonValue(value);
  return values;
}

// --- the areas -----------------------------------------------------------------------------------

/** One Workspace per image, taken over by container name and friendly name; each one's id becomes a reference. */
export const WORKSPACES: Area<Image> = {
  area: "workspaces",
  kind: "Workspace",
  section: {
    title: "Workspaces",
    comment:
      "Workspace images, taken over by container name and friendly name: every image the installation offers,\n" +
      "those Kasm ships with too. Registry credentials are read from the stack configuration: see README.md.",
  },
  variablePrefix: "workspace",
  records: (inventory) => inventory.images,
  notDeclared: (image, w) => whyNotDeclared(image, w.inventory.images ?? []),
  name: (image) => [image.friendly_name ?? image.name ?? image.image_id.slice(0, 8), "workspace"],
  id: (image) => image.image_id,
  inputs(image, w, name) {
    const label = `workspace "${image.friendly_name}" (${image.name})`;
    // Kasm shows the registry user but never the password (masked when one is set); the kind holds both secret.
    const credentials = {
      registryUsername: image.ctr_user
        ? w.secret(`${camel(name)}RegistryUsername`, `the registry user of ${label}, as Kasm's workspace settings show it`)
        : undefined,
      registryPassword: (image as { ctr_token?: unknown }).ctr_token
        ? w.secret(`${camel(name)}RegistryPassword`, `the registry password of ${label} (Kasm shows it masked; it is sent with the workspace's next change)`)
        : undefined,
    };
    return { ...shownValues(image), ...credentials, adopt: true };
  },
};

/** The name a registry's resource is made from: its list's name, else its URL's host. */
function registryNameOf(registry: Registry): string {
  const name = registry.config?.name;
  if (typeof name === "string" && name.trim() !== "") return name;
  try {
    return new URL(registry.registry_url).host;
  } catch {
    return registry.registry_url;
  }
}

/**
 * One WorkspaceRegistry per registry the installation lists, Kasm's own too, taken over by URL
 * (the kind's `adopt`): the URL Kasm keeps, its channel when it has one, its automatic updates.
 */
export const WORKSPACE_REGISTRIES: Area<Registry> = {
  area: "workspace-registries",
  kind: "WorkspaceRegistry",
  section: {
    title: "Workspace registries",
    comment: "The registries Kasm lists workspaces from, taken over by URL (Kasm's own registry too).",
  },
  records: (inventory) => inventory.registries,
  name: (registry) => [registryNameOf(registry), "registry"],
  id: (registry) => registry.registry_id,
  inputs: (registry) => ({ ...registryShown(registry), adopt: true }),
};

/** One group's permission to launch one workspace. */
interface GroupWorkspace {
  readonly group: GroupRecord;
  readonly image: GroupImage;
}

/** The name a group's workspace goes by (the reader's rule, which orders a group's workspaces by it). */
function imageNameOf(w: ProgramWriter, image: GroupImage): string | undefined {
  return groupImageName(image, w.imageNames);
}

/** One GroupWorkspace per group and workspace its members may launch, Kasm's own groups too. */
export const WORKSPACE_GROUPS: Area<GroupWorkspace> = {
  area: "workspace-groups",
  kind: "GroupWorkspace",
  section: { title: "Workspace groups", comment: "Which groups may launch which workspaces (Kasm's own groups too)." },
  records: ({ groups, groupImages }) =>
    groupImages && (groups ?? []).flatMap((group) => (groupImages.get(group.group_id) ?? []).map((image) => ({ group, image }))),
  name: ({ group, image }, w) => [`${group.name}-${imageNameOf(w, image) ?? image.image_id.slice(0, 8)}`, "group-workspace"],
  id: ({ group, image }) => pairId(group.group_id, image.image_id),
  inputs: ({ group, image }, w) => ({ groupId: w.groupRef(group.group_id), imageId: w.imageRef(image.image_id, imageNameOf(w, image)), adopt: true }),
};
