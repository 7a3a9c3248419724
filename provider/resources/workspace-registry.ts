/**
 * `WorkspaceRegistry`: a workspace registry Kasm lists workspaces from (a released Kasm's
 * operations: `kasm:apiNames` `product`).
 *
 * API: create_registry, get_registries (the product has no read of one registry: refresh finds it
 * in the list by id), registry_auto_updates, delete_registry. The API documentation leaves these
 * operations out; their shapes come from a decompile of the 1.15.0 API server (admin_api.py) and a
 * Terraform client tested against 1.16.1 (internal/client/registry_ops.go, registry_types.go).
 *
 * A registry is a static site: Kasm fetches `versions.txt` and `1.0/list.json` from its URL when
 * the registry is added, and keeps the list (its workspaces) and, as the registry's URL, the
 * `list_url` the list names. The URL and the channel cannot change in place (no operation does):
 * changing either replaces the registry. `autoUpdate` changes in place (registry_auto_updates).
 * URLs are unique in Kasm (the product refuses a second registry of one URL): adoption by URL
 * (`adopt: true`).
 *
 * With `kasm:apiNames` `spec` (the default), `check` refuses the resource before any plan, naming
 * the setting: the documentation's vocabulary has no operation that manages registries.
 */
import { z } from "zod";
import { registryShown, registryUrl, type NewRegistry, type Registry } from "../api/schemas/images";
import { ADOPT, declared, inputNames, declareFields } from "./framework/fields";
import { KasmObjectMissingError } from "./framework/errors";
import type { KindTexts, Props, RefreshedInputs } from "./framework/types";
import { defineKind, type KindOutputs } from "./framework/define-kind";
import { workspaceRegistryCalls } from "./workspace-registry.calls";

// --- types ---------------------------------------------------------------------------------------

/**
 * Each input of a WorkspaceRegistry, declared once: its type, role, rule, doc and how it is sent.
 * The URL and the channel cannot change in place.
 */
const WORKSPACE_REGISTRY_FIELDS = declareFields({
  url: {
    type: z
      .string()
      .trim()
      .min(1, "url must not be empty")
      .refine((value) => /^https?:\/\/[^/\s]+/i.test(value), "url must be an http:// or https:// address (Kasm fetches the registry's versions.txt from it)"),
    role: "sent",
    // create_registry names the address `registry`.
    wire: "registry",
    replaces: true,
    equal: (a, b) => typeof a === "string" && typeof b === "string" && registryUrl(a) === registryUrl(b),
    doc:
      "The registry's address (http or https). Kasm fetches `versions.txt` and `1.0/list.json` from " +
      "it; a trailing slash is added. Changing it replaces the registry.",
  },
  channel: {
    type: z.string().min(1, "channel must not be empty (leave it out for the registry's default)").optional(),
    role: "sent",
    replaces: true,
    doc: "The registry's channel (Kasm 1.16 and later). Left out: none is sent. Changing it replaces " + "the registry (no operation changes it in place).",
  },
  autoUpdate: {
    type: z.boolean().optional(),
    role: "sent",
    // Set by an operation of its own (registry_auto_updates), never in the create's body.
    wire: "auto_updates",
    doc: "Whether Kasm updates the registry's workspaces by itself. Left out: Kasm's default (false) and a change made in Kasm is kept.",
  },
  adopt: {
    ...ADOPT,
    doc: "Take over an existing registry at this URL (and bring it to the declared state) instead of failing. Default: false.",
  },
});

/** The inputs of a WorkspaceRegistry. */
export const WorkspaceRegistryInputs = WORKSPACE_REGISTRY_FIELDS.schema;
export type WorkspaceRegistryInputs = z.infer<typeof WorkspaceRegistryInputs>;

/** What the provider adds to the inputs: each output, its type and its doc (the SDK class's TSDoc and the package schema's description). */
export const WorkspaceRegistryOutputs = z.strictObject({
  registryId: z.string().describe("The registry's id (32 hex digits)."),
  registryUrl: z.string().describe("The registry's URL as Kasm keeps it: the `list_url` its list names, ending in a slash."),
  registryName: z.string().describe("The registry's name, from its list."),
  workspaces: z
    .array(
      z
        .strictObject({
          name: z.string().describe('The container image the workspace runs, such as kasmweb/chrome:1.16.0 ("" when the registry names none).'),
          friendlyName: z.string().describe("The workspace's name as people see it."),
          description: z.string().describe("What the workspace is."),
          imageSrc: z.string().describe("The workspace's icon, as the registry gives it."),
          dockerRegistry: z.string().describe('The container registry its image is pulled from ("" when the registry names none).'),
        })
        .describe("A workspace a registry offers: what a Workspace that installs it declares."),
    )
    .describe("The workspaces the registry offers, as Kasm listed them when the registry was last read: install one as a Workspace."),
});
export type WorkspaceRegistryOutputs = z.infer<typeof WorkspaceRegistryOutputs>;

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the WorkspaceRegistry kind (see {@link KindTexts}; each input's doc is its declaration's). */
const DOCS: KindTexts = {
  description:
    "A workspace registry: a static site Kasm lists workspaces from (its `versions.txt` and " +
    "`1.0/list.json`, fetched by Kasm when the registry is added). The API documentation has no " +
    "registry operations; a released Kasm (1.15 or later) has, so this kind needs `kasm:apiNames` " +
    "`product`; with `spec` (the default) preview refuses it, naming the setting. Changing the URL " +
    "or the channel replaces the registry; `autoUpdate` changes in place. Deleting a registry " +
    "leaves the workspaces installed from it. Needs Registries Create, Modify, Delete and View " +
    "(which needs Images View, System View and Agents View).",
  arguments: "The arguments of a WorkspaceRegistry. Inputs left out are not managed: Kasm keeps whatever they are.",
  example: [
    'const acme = new kasm.WorkspaceRegistry("acme", { url: "https://registry.example.org/" });',
    "// What it offers, as Kasm fetched it: install one as a kasm.Workspace.",
    "export const offered = acme.workspaces.apply((ws) => ws.map((w) => w.friendlyName));",
  ].join("\n"),
  limits:
    "needs `kasm:apiNames product` (a released Kasm): the API documentation has no registry " +
    "operations, and preview refuses it with `spec`; the URL and the channel are replaced, not " +
    "changed; Kasm fetches the registry from its own network when it is added",
};

// --- helpers -------------------------------------------------------------------------------------

/** The `create_registry` body: the declared fields but `autoUpdate`, which an operation of its own sets. */
function newRegistry(inputs: WorkspaceRegistryInputs): NewRegistry {
  return WORKSPACE_REGISTRY_FIELDS.body<NewRegistry>({ ...inputs, autoUpdate: undefined });
}

/** The `registry_auto_updates` body: the registry, and `autoUpdate` under its wire name. */
function autoUpdatesBody(registryId: string, autoUpdate: boolean): { registry_id: string; auto_updates: boolean } {
  return { ...WORKSPACE_REGISTRY_FIELDS.body<{ auto_updates: boolean }>({ autoUpdate }, ["autoUpdate"]), registry_id: registryId };
}

/** The registry's name from its list, or "" when the list names none. */
function registryName(registry: Registry): string {
  const name = registry.config?.name;
  return typeof name === "string" ? name : "";
}

/** The registry's fields as inputs: what `read` reports and adoption compares. */
function currentInputs(props: RefreshedInputs<WorkspaceRegistryInputs>, registry: Registry): RefreshedInputs<WorkspaceRegistryInputs> {
  // Kasm's record as inputs (the client's mapping, which kasm-import writes too). 1.15 keeps no
  // channel: one declared stays as declared when Kasm answers none (left out here).
  const current: Props = { ...registryShown(registry) };
  // Kasm keeps the URL its list names: the declared one stands while both are the same address.
  if (typeof props.url === "string" && registryUrl(props.url) === registryUrl(registry.registry_url)) current.url = props.url;
  return current;
}

/** A text field of a registry's workspace, or "" when it has none. */
const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** The workspaces a registry offers, in the output's fields. */
function offered(registry: Registry): WorkspaceRegistryOutputs["workspaces"] {
  return (registry.workspaces ?? []).map((w) => ({
    name: text(w.name),
    friendlyName: text(w.friendly_name),
    description: text(w.description),
    imageSrc: text(w.image_src),
    dockerRegistry: text(w.ctr_registry),
  }));
}

function outputs(inputs: RefreshedInputs<WorkspaceRegistryInputs>, registry: Registry): KindOutputs<WorkspaceRegistryInputs, WorkspaceRegistryOutputs> {
  return {
    ...declared(inputs, inputNames(WorkspaceRegistryInputs)),
    registryId: registry.registry_id,
    // get_registries adds a slash to the URL, create's answer keeps it as the list names it.
    registryUrl: registryUrl(registry.registry_url),
    registryName: registryName(registry),
    workspaces: offered(registry),
  };
}

// --- provider ------------------------------------------------------------------------------------

/** The provider of WorkspaceRegistry; only `adopt` changing sends no request. */
export const workspaceRegistryProvider = defineKind<WorkspaceRegistryInputs, WorkspaceRegistryOutputs, Registry>({
  fields: WORKSPACE_REGISTRY_FIELDS,
  outputs: WorkspaceRegistryOutputs,
  docs: DOCS,
  // Refused before any plan with the spec's vocabulary, which has no such operations.
  productOnly: {
    kind: "WorkspaceRegistry",
    operations: "registry operations (create_registry, get_registries, registry_auto_updates, delete_registry)",
    otherwise: "add the registry in the Kasm UI (Workspaces > Registry) and read it with getRegistries",
  },
  // The product has no read of one registry: refresh finds it in the list by id.
  record: {
    id: (registry) => registry.registry_id,
    fetch: (id, _state, context) => context.client().images.findRegistryById(id),
    asInputs: currentInputs,
    outputs,
  },
  adoption: {
    kind: "WorkspaceRegistry",
    noun: "Workspace registry",
    key: (inputs) => `at '${registryUrl(inputs.url)}'`,
    find: (inputs, context) => context.client().images.findRegistry(inputs.url),
    // The checks before N creates share one listing (`KeyLookups` in provider/api/client.ts): N lookups, one request.
    findBeforeCreate: (inputs, context) => context.client().keys.registry(inputs.url),
    // Looked up even without adopt: Kasm refuses a second registry of one URL.
    findFirst: (existing) => `registry ${existing.registry_id}`,
  },
  calls: workspaceRegistryCalls,

  async create(inputs, context, createOrAdopt) {
    const client = context.client();
    const registry = await createOrAdopt({
      // An adopted registry is at the declared URL already: only its automatic updates can differ.
      update: async (existing) =>
        inputs.autoUpdate === undefined || inputs.autoUpdate === (existing.do_auto_update ?? false)
          ? existing
          : client.images.registryAutoUpdates(autoUpdatesBody(existing.registry_id, inputs.autoUpdate)),
      create: async () => {
        const created = await client.images.createRegistry(newRegistry(inputs));
        if (inputs.autoUpdate !== true) return created;
        return client.images.registryAutoUpdates(autoUpdatesBody(created.registry_id, inputs.autoUpdate));
      },
    });
    return { id: registry.registry_id, outs: outputs(inputs, registry) };
  },

  async update(id, _olds, news, _changedFields, context) {
    // Only autoUpdate changes in place (the URL and the channel replace the registry).
    const client = context.client();
    const registry =
      news.autoUpdate === undefined ? await client.images.findRegistryById(id) : await client.images.registryAutoUpdates(autoUpdatesBody(id, news.autoUpdate));
    if (registry === undefined)
      throw new KasmObjectMissingError(
        `Workspace registry ${id} (${news.url}) is no longer in Kasm: run \`pulumi refresh --yes\`, then \`pulumi up\` to add it again.`,
      );
    return { outs: outputs(news, registry) };
  },

  async delete(id, _props, context) {
    // 1.15 fails unhandled on an id it does not have: deleting what is already gone is done.
    const client = context.client();
    if ((await client.images.findRegistryById(id)) === undefined) return;
    await client.images.deleteRegistry({ registry_id: id });
  },
});
