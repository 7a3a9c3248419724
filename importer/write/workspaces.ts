/**
 * The program's workspace sections: the workspace images the installation offers, and which
 * groups may launch each. Apart from the other areas because both exist only in a released Kasm's
 * vocabulary, and because a workspace is written from the mapping of an image record the Workspace
 * kind compares on a take-over (`imageSettingsShown`, in the client, which the importer may use):
 * the first `up` finds each image as declared. Every image is taken over, those Kasm ships with
 * too: they are what the installation offers its users, nothing in Kasm's record tells a shipped
 * image from an added one, and a stack that left them out could not say by reference which groups
 * may launch them.
 */
import { imageSettingsShown, type Image } from "../../provider/api";
import { camel } from "../names";
import { pairId } from "../../catalogue/ids";
import { Code, canonical, rawId, setValues, type ProgramWriter, type Value } from "./writer";

// --- helpers -------------------------------------------------------------------------------------

/** A JSON value Kasm shows (a run config, an exec config) as a value of the program, its nulls kept. */
function jsonValue(value: unknown): Value {
  if (value === null || value === undefined) return new Code("null");
  if (Array.isArray(value)) return value.map(jsonValue);
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, jsonValue(v)]));
  return value as string | number | boolean;
}

/** The pair a Workspace is taken over by: its container name and its friendly name. */
const pairOf = (image: Image) => `${image.name}\u0000${image.friendly_name ?? ""}`;

/**
 * Why an image cannot be declared as a Workspace, or undefined when it can. A take-over finds the
 * image by its container name and friendly name, as sent (trimmed): both must be there, without
 * surrounding spaces, and no other image may have the same two.
 */
function whyNotDeclared(image: Image, pairs: ReadonlyMap<string, number>): string | undefined {
  const names = [image.name, image.friendly_name ?? ""];
  if (names.some((name) => name.trim() === "")) return "without a container name or a friendly name, which a Workspace needs";
  if (names.some((name) => name !== name.trim())) return "with a name padded with spaces, which a take-over (sending the names trimmed) would not find";
  if ((pairs.get(pairOf(image)) ?? 0) > 1) return "with the container name and friendly name of another image, which a take-over could not tell apart";
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

// --- the sections --------------------------------------------------------------------------------

/** One Workspace per image, taken over by container name and friendly name; each one's id becomes a reference. */
export function writeWorkspaces(w: ProgramWriter): void {
  const images = w.wanted("workspaces", w.inventory.images);
  if (images === undefined) return;
  const pairs = new Map<string, number>();
  for (const image of images) pairs.set(pairOf(image), (pairs.get(pairOf(image)) ?? 0) + 1);
  const notDeclared = new Map<string, number>();
  const lines: string[] = [];
  for (const image of images) {
    const why = whyNotDeclared(image, pairs);
    if (why !== undefined) {
      notDeclared.set(why, (notDeclared.get(why) ?? 0) + 1);
      continue;
    }
    const label = `workspace "${image.friendly_name}" (${image.name})`;
    const name = w.names.resource(image.friendly_name ?? image.name, "workspace");
    const variable = w.names.variable(name, "workspace");
    // Kasm shows the registry user but never the password (masked when one is set); the kind holds both secret.
    const credentials = {
      registryUsername: image.ctr_user ? w.secret(`${camel(name)}RegistryUsername`, `the registry user of ${label}, as Kasm's workspace settings show it`) : undefined,
      registryPassword: (image as { ctr_token?: unknown }).ctr_token
        ? w.secret(`${camel(name)}RegistryPassword`, `the registry password of ${label} (Kasm shows it masked; it is sent with the workspace's next change)`)
        : undefined,
    };
    lines.push(w.declare(variable, "Workspace", name, image.image_id, { ...shownValues(image), ...credentials, adopt: true }, w.options()));
  }
  w.row("workspaces", images.length, lines.length, [...notDeclared].map(([why, count]) => `${count}: ${why}`));
  if (lines.length > 0)
    w.section(
      "Workspaces",
      "Workspace images, taken over by container name and friendly name: every image the installation offers,\n" +
        "those Kasm ships with too. Registry credentials are read from the stack configuration: see README.md.",
      `${lines.join("\n")}\n`,
    );
}

/** One GroupWorkspace per group and workspace its members may launch, Kasm's own groups too. */
export function writeWorkspaceGroups(w: ProgramWriter): void {
  const groupImages = w.wanted("workspace-groups", w.inventory.groupImages);
  if (groupImages === undefined) return;
  const lines: string[] = [];
  for (const group of w.inventory.groups ?? [])
    for (const image of groupImages.get(group.group_id) ?? []) {
      const imageName = w.imageNames.get(canonical(image.image_id)) ?? image.image_friendly_name ?? image.friendly_name ?? undefined;
      const name = w.names.resource(`${group.name}-${imageName ?? image.image_id.slice(0, 8)}`, "group-workspace");
      lines.push(w.declare(undefined, "GroupWorkspace", name, pairId(group.group_id, image.image_id), { groupId: w.groupRef(group.group_id), imageId: w.imageRef(image.image_id, imageName), adopt: true }, w.options()));
    }
  w.row("workspace-groups", lines.length, lines.length);
  if (lines.length > 0) w.section("Workspace groups", "Which groups may launch which workspaces (Kasm's own groups too).", `${lines.join("\n")}\n`);
}
