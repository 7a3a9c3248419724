/**
 * `Workspace`: a workspace image in Kasm's catalogue (a released Kasm's operations: `kasm:apiNames`
 * `product`): which container image is offered, under what name, with what resources, registry,
 * run and exec configuration and volume mappings, and where it may run.
 *
 * API: create_image, update_image, delete_image, and get_images to read (1.15.0 has no read of
 * one image) and for adoption. The API documentation lists only get_images; the other operations
 * are the released product's, read in two public clients and a decompile of the 1.15.0 API server
 * (see api/schemas/images.ts). Every
 * field updates in place. Kasm allows two images of one container name: adoption by the container
 * name and the friendly name together (`adopt: true`).
 *
 * Because no public source shows the whole of what the product's create and update accept, the
 * provider reads the image back after each write and fails, naming the field, when Kasm does not
 * show a declared value: a setting Kasm did not take is never reported as applied. The registry
 * credentials are not shown back by Kasm and are secrets.
 *
 * With `kasm:apiNames` `spec` (the default), `check` refuses the resource before any plan, naming
 * the setting: the documentation's vocabulary has no operation that manages images.
 */
import { z } from "zod";
import { RESOURCE_FIELDS_CHANGING, WORKSPACE_RESOURCE_PROPERTIES } from "../../permissions/kinds";
import { UNKNOWN } from "../../permissions/planned-calls";
import {
  IMAGE_CHECKED_SETTINGS,
  IMAGE_JSON_SETTINGS,
  IMAGE_SETTINGS,
  imageSettingsShown,
  type ProductImage as KasmImage,
  type ImageUpdate,
  type NewImage,
} from "../api/schemas/images";
import { settingRef, type SettingNames } from "../api/config";
import type { KasmClient } from "../api/client";
import { ADOPT, declared, inputNames, same, declareFields } from "./framework/fields";
import { hasState, isUnknown, KasmId, requiredText, previewNote } from "./framework/check-wording";
import { initializationFailure, unlessGone, defineKind, fieldNames, type KindOutputs } from "./framework/define-kind";
import { KasmObjectMissingError, KasmValueNotTakenError } from "./framework/errors";
import type { KindTexts, Props, RefreshedInputs } from "./framework/types";
import { workspaceCalls } from "./workspace.calls";

// --- types ---------------------------------------------------------------------------------------

/** A JSON object given as an object in the program and sent as JSON text, as the product's create and update take it. */
const JsonObject = z.record(z.string(), z.unknown());

/** How a JSON object input is sent: as JSON text. */
const asJsonText = (value: Readonly<Record<string, unknown>>) => JSON.stringify(value);

/** How a name input is sent: trimmed. */
const trimmed = (name: string) => name.trim();

/**
 * Each input of a Workspace, declared once: its type, role, rule, doc and how it is sent (in the
 * spec's vocabulary, as the client writes it). Nothing forces replacement: update_image takes the
 * whole record.
 */
const WORKSPACE_FIELDS = declareFields({
  // Names declared with surrounding spaces are sent trimmed: the same names, no drift.
  name: { type: requiredText("name"), role: "sent", send: trimmed, doc: "The container image and tag Kasm pulls, such as `kasmweb/chrome:1.16.0`." },
  friendlyName: { type: requiredText("friendlyName"), role: "sent", send: trimmed, doc: "The name users see in the workspace list." },
  description: { type: z.string().optional(), role: "sent", doc: "Free text shown with the workspace." },
  // One a line on the wire: a line break inside one would split it.
  categories: {
    type: z.array(z.string().regex(/^[^\r\n]*$/, "a category must be one line (Kasm stores the categories one a line)")).optional(),
    role: "sent",
    equal: same.set,
    send: (categories: readonly string[]) => categories.join("\n"),
    doc: "The categories the workspace is listed under (each one line).",
  },
  imageSrc: { type: z.string().optional(), role: "sent", doc: "The thumbnail's path or URL, such as `img/thumbnails/chrome.png`." },
  enabled: { type: z.boolean().optional(), role: "sent", doc: "Whether users may launch it." },
  cores: {
    type: z.number().positive("cores must be more than 0").optional(),
    role: "sent",
    doc: "CPU cores given to each session (more than 0; fractions allowed).",
  },
  memory: {
    type: z.number().int("memory must be a whole number of bytes").positive("memory must be more than 0 bytes").optional(),
    role: "sent",
    doc: "Memory given to each session, in bytes (2 GB is 2000000000).",
  },
  gpuCount: {
    type: z.number().int("gpuCount must be a whole number").min(0, "gpuCount must be 0 or more").optional(),
    role: "sent",
    doc: "GPUs given to each session: a whole number, 0 or more.",
  },
  requireGpu: {
    type: z.boolean().optional(),
    role: "sent",
    doc:
      "Whether a session may start only on an agent with a GPU. Kasm 1.15 takes it and does not store it (a public decompile of its API server): " +
      "there a declared `true` fails the create or update, naming it, rather than passing as applied.",
  },
  cpuAllocationMethod: { type: z.string().optional(), role: "sent", doc: "How cores are enforced: `Inherit`, `Quotas` or `Shares` in released Kasm." },
  uncompressedSizeMb: {
    type: z.number().int("uncompressedSizeMb must be a whole number").min(0, "uncompressedSizeMb must be 0 or more").optional(),
    role: "sent",
    doc: "The image's size once pulled, in MB.",
  },
  imageType: { type: z.string().optional(), role: "sent", doc: "`Container` for a container image (Kasm's default)." },
  registry: {
    type: z.string().optional(),
    role: "sent",
    wire: "ctr_registry",
    doc: "The registry the image is pulled from, such as `https://index.docker.io/v1/`.",
  },
  registryUsername: {
    type: z.string().optional(),
    role: "sent",
    wire: "ctr_user",
    secret: true,
    doc: "The registry user. A secret: wrapped with `pulumi.secret` and kept out of the state in plain text.",
  },
  registryPassword: {
    type: z.string().optional(),
    role: "sent",
    wire: "ctr_token",
    secret: true,
    doc: "The registry password or token. A secret; Kasm never shows it back, so refresh keeps the " + "declared value.",
  },
  runConfig: {
    type: JsonObject.optional(),
    role: "sent",
    equal: same.json,
    send: asJsonText,
    doc: 'Docker run settings that override Kasm\'s, such as `{ hostname: "kasm", environment: { TZ: ' + '"UTC" } }`.',
  },
  execConfig: {
    type: JsonObject.optional(),
    role: "sent",
    equal: same.json,
    send: asJsonText,
    doc: 'Commands run in the session, such as `{ first_launch: { cmd: "google-chrome" } }`.',
  },
  volumeMappings: { type: JsonObject.optional(), role: "sent", equal: same.json, send: asJsonText, doc: "Host paths mounted into each session, by host path." },
  restrictToZone: { type: z.boolean().optional(), role: "sent", doc: "Whether sessions start only in WorkspaceArgs.zoneId's zone." },
  zoneId: { type: KasmId.optional(), role: "sent", equal: same.id, doc: "The zone sessions are restricted to (32 hex digits or a hyphenated UUID)." },
  restrictToServer: { type: z.boolean().optional(), role: "sent", doc: "Whether sessions start only on WorkspaceArgs.serverId's server." },
  serverId: { type: KasmId.optional(), role: "sent", equal: same.id, doc: "The server sessions are restricted to (32 hex digits or a hyphenated UUID)." },
  restrictToNetwork: { type: z.boolean().optional(), role: "sent", doc: "Whether sessions join only the networks of WorkspaceArgs.restrictNetworkNames." },
  restrictNetworkNames: {
    type: z.array(z.string()).optional(),
    role: "sent",
    equal: same.set,
    doc: "The Docker networks sessions may join, when restricted to networks.",
  },
  adopt: {
    ...ADOPT,
    doc:
      "Take over the existing image with this container name and friendly name (and bring it to the " +
      "declared state) instead of creating a second one. Default: false.",
  },
});

/** The inputs of a Workspace. */
export const WorkspaceInputs = WORKSPACE_FIELDS.schema;
export type WorkspaceInputs = z.infer<typeof WorkspaceInputs>;

/** What the provider adds to the inputs: each output, its type and its doc (the SDK class's TSDoc and the package schema's description). */
export const WorkspaceOutputs = z.strictObject({
  imageId: z.string().describe("The image's id (32 hex digits)."),
  available: z.boolean().nullable().describe("Whether Kasm has the image ready on an agent, when Kasm was last read (read only; never causes a diff)."),
});
export type WorkspaceOutputs = z.infer<typeof WorkspaceOutputs>;

/** The fields Kasm never shows back: not compared after a write, kept as declared on refresh. */
const UNREADABLE = ["registryUsername", "registryPassword"] as const;

/**
 * Compute-related inputs: the spec's rule 3 puts a change of one behind Images Modify Resources on
 * top of Images Modify. The permission catalogue's list (the permissions pack reads it), held to the inputs here.
 */
const RESOURCE_FIELDS = WORKSPACE_RESOURCE_PROPERTIES satisfies readonly (keyof typeof WORKSPACE_FIELDS.apiFields)[];

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the Workspace kind (see {@link KindTexts}; each input's doc is its declaration's). */
const DOCS: KindTexts = {
  description:
    "A workspace in Kasm's catalogue: a container image offered to users. The API documentation has " +
    "no operation that creates or changes one; a released Kasm (1.15 or later) does, so this kind " +
    "needs `kasm:apiNames` `product`; with `spec` (the default) preview refuses it, naming the " +
    "setting. After each write the provider reads the image back and fails, naming the field, when " +
    "Kasm does not show a declared value. Kasm refuses to delete an image a session or a casting " +
    "config uses. Needs Images Create, View, Modify and Delete, and Images Modify Resources for the " +
    "compute-related fields.",
  arguments:
    "The arguments of a Workspace. Inputs left out are not managed: Kasm keeps whatever they are. " +
    "Every field changes in place. The compute-related ones (`cores`, `memory`, `gpuCount`, " +
    "`requireGpu`, `cpuAllocationMethod`, `uncompressedSizeMb`, the registry and its credentials, " +
    "`volumeMappings`, `runConfig`, `execConfig`) need the API key to hold Images Modify Resources " +
    "on top of Images Modify. Without it, no field of an image that keeps a registry password can " +
    "change unless `registryPassword` is declared: Kasm compares the password sent back, which it " +
    "answered masked, with the stored one.",
  example: [
    'const chrome = new kasm.Workspace("chrome", {',
    '  name: "kasmweb/chrome:1.16.0",',
    '  friendlyName: "Chrome",',
    '  categories: ["Browsers"],',
    "  cores: 2,",
    "  memory: 2_768_000_000,",
    "});",
    'new kasm.GroupWorkspace("support-chrome", { groupId: support.groupId, imageId: chrome.imageId });',
  ].join("\n"),
  limits:
    "needs `kasm:apiNames product` (a released Kasm): the API documentation has no image writes, and " +
    "preview refuses it with `spec`; each write is read back, and a value Kasm does not show as " +
    "declared fails the step, naming the field; the registry credentials are never shown back, so " +
    "drift in them cannot be seen; an image a session or a casting config uses is not deleted; an " +
    "the permissions pack can tell which compute-related fields an update changes only on the native " +
    "provider, whose preview says so (see [policy/README.md](policy/README.md))",
};

// --- helpers -------------------------------------------------------------------------------------

/** The `target_image` of a create: the declared fields, in the form the product's create takes (each under its wire name, as its declaration sends it). */
function newImage(inputs: WorkspaceInputs): NewImage {
  return WORKSPACE_FIELDS.body<NewImage>(inputs);
}

/**
 * The `target_image` of an update: the whole record, as the product's update takes it (it clears
 * settings a record leaves out): each setting of the current record (see `IMAGE_SETTINGS`), in the
 * form a write takes, with every declared field in its place. The masked registry password Kasm
 * answers is sent back as it is, which keeps the stored one.
 */
function imageUpdate(current: KasmImage, inputs: WorkspaceInputs): ImageUpdate {
  const record = current as Props;
  const kept: Props = {};
  for (const setting of IMAGE_SETTINGS) {
    const value = record[setting];
    // Null is sent for a setting 1.15.0 fails an update without (see IMAGE_CHECKED_SETTINGS); a JSON config is never null.
    if (value === null && IMAGE_CHECKED_SETTINGS.includes(setting) && !IMAGE_JSON_SETTINGS.includes(setting)) kept[setting] = null;
    if (value === undefined || value === null) continue;
    if (IMAGE_JSON_SETTINGS.includes(setting)) kept[setting] = JSON.stringify(value);
    else if (setting === "categories" && Array.isArray(value)) kept[setting] = value.join("\n");
    else kept[setting] = value;
  }
  return { ...kept, ...newImage(inputs), image_id: current.image_id } as ImageUpdate;
}

/** The image's fields as inputs (the declared spelling of ids kept): what `read` reports and adoption compares. */
function currentInputs(props: RefreshedInputs<WorkspaceInputs>, image: KasmImage): RefreshedInputs<WorkspaceInputs> {
  const shown = imageSettingsShown(image);
  const current: RefreshedInputs<WorkspaceInputs> = {
    ...shown,
    execConfig: shown.execConfig as Props | null,
    zoneId: same.id(props.zoneId, image.zone_id) ? props.zoneId : shown.zoneId,
    serverId: same.id(props.serverId, image.server_id) ? props.serverId : shown.serverId,
  };
  // Names declared with surrounding spaces are sent trimmed: the same names, no drift.
  if (typeof props.name === "string" && props.name.trim() === image.name) current.name = props.name;
  if (typeof props.friendlyName === "string" && props.friendlyName.trim() === image.friendly_name) current.friendlyName = props.friendlyName;
  // What Kasm does not show stays as declared.
  for (const key of UNREADABLE) current[key] = props[key];
  return current;
}

/**
 * The declared fields Kasm's record does not show as declared after a write: a field the record
 * lacks altogether cannot tell and is not counted; one it shows otherwise was not taken.
 */
function notTaken(inputs: WorkspaceInputs, image: KasmImage): string[] {
  const shown = currentInputs(inputs, image) as Props;
  const answer = image as Props;
  const rules: Readonly<Record<string, { equal?: (a: unknown, b: unknown) => boolean }>> = WORKSPACE_FIELDS.apiFields;
  return fieldNames(WORKSPACE_FIELDS.apiFields).filter((key) => {
    if (inputs[key] === undefined || (UNREADABLE as readonly string[]).includes(key) || !(String(WORKSPACE_FIELDS.wireName(key)) in answer)) return false;
    return !(rules[key].equal ?? same.value)(shown[key], inputs[key]);
  });
}

/**
 * Declared settings a released Kasm takes and does not store, each with the release and the
 * source: a write that leaves one not taken says why, and how to go on.
 */
const NOT_STORED: Readonly<Partial<Record<string, string>>> = {
  requireGpu:
    "Kasm 1.15 takes require_gpu in create_image and update_image but never stores it (its image store, create_update_image, in a public decompile of its API server), " +
    "so on that release requireGpu cannot be set through the API: leave it out, or declare false",
};

/** The error for a write Kasm answered without taking some declared values. */
function notTakenError(key: string, fields: readonly string[], names: SettingNames): KasmValueNotTakenError {
  const known = fields.flatMap((field) => (NOT_STORED[field] === undefined ? [] : [` ${field}: ${NOT_STORED[field]}.`]));
  return new KasmValueNotTakenError(
    `Workspace ${key}: Kasm answered the write but does not show ${fields.join(", ")} as declared, so ${fields.length === 1 ? "that setting was" : "those settings were"} ` +
      `not taken.${known.join("")} Check that ${settingRef(names, "apiNames")} matches the installation (a released Kasm is "product") and that the values are ` +
      "ones this Kasm release accepts; the workspace is kept in the stack, and the next `pulumi up` tries again.",
    fields,
  );
}

/** The image as Kasm lists it after a write; an image the write's answer named and the list lacks is an error, never a success. */
async function readBack(client: KasmClient, imageId: string): Promise<KasmImage> {
  const image = await client.images.findImageById(imageId);
  if (!image) throw new KasmObjectMissingError(`Workspace: Kasm answered the write with image ${imageId}, but its image list does not show it.`);
  return image;
}

function outputs(inputs: RefreshedInputs<WorkspaceInputs>, image: KasmImage): KindOutputs<WorkspaceInputs, WorkspaceOutputs> {
  return { ...declared(inputs, inputNames(WorkspaceInputs)), imageId: image.image_id, available: image.available ?? null };
}

/** How messages name a workspace. */
function label(inputs: Pick<WorkspaceInputs, "name" | "friendlyName">): string {
  return `'${inputs.friendlyName.trim()}' (${inputs.name.trim()})`;
}

/**
 * What the preview of an update tells the permissions pack about a workspace (`resourceFieldsChanging`,
 * see the permission catalogue's `RESOURCE_FIELDS_CHANGING`): the compute-related inputs whose declared value
 * differs from the state's, as `update` will send them (one the program stops declaring keeps
 * Kasm's value: not a change); the unknown placeholder when none is sure to change and one is not
 * known yet (preview); undefined on a create, which has no state to compare with.
 */
export function resourceFieldsChanging(olds: Props, news: Props): readonly string[] | typeof UNKNOWN | undefined {
  if (!hasState(olds)) return undefined;
  const declaredFields = RESOURCE_FIELDS.filter((field) => news[field] !== undefined);
  const changing = declaredFields.filter((field) => !isUnknown(news[field]) && !same.value(olds[field], news[field]));
  if (changing.length === 0 && declaredFields.some((field) => isUnknown(news[field]))) return UNKNOWN;
  return changing;
}

// --- provider ------------------------------------------------------------------------------------

/** The provider of Workspace; only `adopt` changing sends no request. */
export const workspaceProvider = defineKind<WorkspaceInputs, WorkspaceOutputs, KasmImage>({
  fields: WORKSPACE_FIELDS,
  outputs: WorkspaceOutputs,
  docs: DOCS,
  // Refused before any plan with the spec's vocabulary, which has no such operations.
  productOnly: {
    kind: "Workspace",
    operations: "image operations (create_image, update_image, delete_image)",
    otherwise: "manage the workspace in the Kasm UI and refer to it by id (the getImage lookup)",
  },
  // The preview of an update says which compute-related fields it changes: a policy sees the new
  // properties only, never the state's.
  previewNotes: (state, news) => previewNote(RESOURCE_FIELDS_CHANGING, resourceFieldsChanging(state, news)),
  // `adopt` and the registry credentials cannot be read back: they stay as declared.
  record: { id: (image) => image.image_id, fetch: (id, _state, context) => context.client().images.findImageById(id), asInputs: currentInputs, outputs },
  adoption: { kind: "Workspace", key: label, unreadable: [...UNREADABLE], find: (inputs, context) => context.client().images.findImage(newImage(inputs)) },
  calls: workspaceCalls,

  async create(inputs, context, createOrAdopt) {
    const client = context.client();
    const image = await createOrAdopt({
      update: (existing) => client.images.updateImage(imageUpdate(existing, inputs)),
      create: () => client.images.createImage(newImage(inputs)),
    });
    // Read back: the answer of a write may be partial; the list shows what Kasm keeps.
    const kept = await readBack(client, image.image_id);
    const missing = notTaken(inputs, kept);
    if (missing.length > 0) throw initializationFailure(kept.image_id, outputs(inputs, kept), notTakenError(label(inputs), missing, context.settingNames));
    return { id: kept.image_id, outs: outputs(inputs, kept) };
  },

  async update(id, _olds, news, _changedFields, context) {
    const client = context.client();
    // The whole record is sent: the current one, with every declared field in its place.
    const current = await client.images.findImageById(id);
    if (!current)
      throw new KasmObjectMissingError(
        `Workspace ${label(news)}: Kasm has no image with id ${id} any more (deleted outside Pulumi). Run \`pulumi refresh\` to drop it from the state, then \`pulumi up\` creates it again.`,
      );
    await client.images.updateImage(imageUpdate(current, news));
    const kept = await readBack(client, id);
    const missing = notTaken(news, kept);
    if (missing.length > 0) throw notTakenError(label(news), missing, context.settingNames);
    return { outs: outputs(news, kept) };
  },

  async delete(id, _state, context) {
    // Deleting what is already gone is done. Kasm refuses an image a session or a casting config uses: its message says which.
    await unlessGone(() => context.client().images.deleteImage({ image_id: id }));
  },
});
