/**
 * `ServerDrain`: holds a server's draining flag (a draining server takes no new sessions).
 *
 * API: set_drain_server, and get_servers to read the flag (`is_draining`). The resource's id is
 * the server's id. `draining` updates in place; another `serverId` replaces (the new server is
 * set, then the old one restored). Create reads the server first and sets nothing when its record
 * shows the flag as declared. Destroy restores the server to not draining, whatever it was
 * before Pulumi managed it, and succeeds when the server no longer exists. A server that
 * disappears from Kasm (removed in the UI) is dropped by refresh. There is nothing to adopt: every
 * server has the flag. Declare at most one ServerDrain per server.
 *
 * What the API cannot do: the spec's server record does not list `is_draining` (only
 * set_drain_server takes it). When Kasm's record carries it, refresh reads it and shows drift (a
 * drain ended in the Kasm UI). When it does not (or it is null), refresh keeps the declared
 * value, so drift cannot be seen, and says so once per resource and refresh, as a warning through
 * the engine's log (see provider/engine-log.ts).
 */
import type { DrainServerParams } from "../api/schemas/servers";
import type { KasmClient } from "../api/client";
import { z } from "zod";
import { canonicalId } from "../../permissions/planned-calls";
import { declared, inputNames, same, declareFields } from "./framework/fields";
import { GONE, isNotFound, orMissing, unlessGone, defineKind, type KindOutputs } from "./framework/define-kind";
import { KasmId } from "./framework/check-wording";
import { KasmObjectMissingError } from "./framework/errors";
import { type KindTexts, NO_OUTPUTS, type Props, type RefreshedInputs } from "./framework/types";
import { serverDrainCalls } from "./server-drain.calls";

// --- types ---------------------------------------------------------------------------------------

/** Each input of a ServerDrain, declared once: its type, role, rule, doc and how it is sent. */
const SERVER_DRAIN_FIELDS = declareFields({
  // The server whose flag it is: another server replaces.
  serverId: {
    type: KasmId,
    role: "key",
    equal: same.id,
    replaces: true,
    // set_drain_server's `target_server`.
    wire: "server_id",
    doc: "The server (32 hex digits or a hyphenated UUID). Another server replaces the resource.",
  },
  // The flag, which updates in place. Its default is written into the inputs, so that the state says what is managed.
  draining: {
    type: z.boolean().optional(),
    role: "sent",
    storedDefault: true,
    wire: "is_draining",
    doc: "Whether the server is draining (takes no new sessions). Default: true.",
  },
});

/** The inputs of a ServerDrain. */
export const ServerDrainInputs = SERVER_DRAIN_FIELDS.schema;
export type ServerDrainInputs = z.infer<typeof ServerDrainInputs>;

/** A ServerDrain has no outputs besides its inputs; its id is the server's id. */
export type ServerDrainOutputs = Record<never, never>;

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the ServerDrain kind (see {@link KindTexts}; each input's doc is its declaration's). */
const DOCS: KindTexts = {
  description:
    "A server's draining flag, held at the declared value. Destroying the resource sets the server " +
    "back to not draining (whatever it was before), and succeeds when the server no longer exists. " +
    "Declare at most one per server.\n\nRefresh and drift: Kasm's API documents no draining flag in " +
    "the server record it returns. When the record carries one (`is_draining`), refresh reads it and " +
    "shows a drain ended in the Kasm UI as drift. When it does not, refresh keeps the declared value " +
    "and warns that drift cannot be seen, once per resource and refresh.",
  arguments: "The arguments of a ServerDrain.",
  example: [
    "// Drain the server during maintenance; remove the resource to put it back in service.",
    'const drain = new kasm.ServerDrain("ws-07", { serverId: "6e1a5c0c1f4b4f6a9f5235e1c0a2b3d4" });',
  ].join("\n"),
  limits:
    "destroy sets the server back to not draining; the spec's server record has no draining flag: " +
    "when Kasm leaves `is_draining` out, refresh keeps the declared value and warns that drift " +
    "cannot be seen",
};

// --- helpers -------------------------------------------------------------------------------------

function outputs(inputs: RefreshedInputs<ServerDrainInputs>): KindOutputs<ServerDrainInputs, ServerDrainOutputs> {
  return declared(inputs, inputNames(ServerDrainInputs));
}

/** The error for a server Kasm does not know. */
function unknownServer(serverId: string, error: unknown): KasmObjectMissingError {
  return new KasmObjectMissingError(`Server ${serverId} does not exist in Kasm (${(error as { errorMessage?: string }).errorMessage ?? "not found"}).`, error);
}

/** Set the flag; an unknown server is an error that says so. */
async function setDraining(client: KasmClient, serverId: string, draining: boolean): Promise<void> {
  await orMissing(
    () => client.servers.setDrainServer(SERVER_DRAIN_FIELDS.body<DrainServerParams>({ serverId, draining })),
    (cause) => unknownServer(serverId, cause),
  );
}

/** The server's draining flag as its record shows it: undefined when the record does not carry it (see the module comment). */
async function drainingFlag(client: KasmClient, serverId: string): Promise<boolean | undefined> {
  const seen = (
    await orMissing(
      () => client.servers.getServers({ server_id: serverId }),
      (cause) => unknownServer(serverId, cause),
    )
  ).is_draining;
  return typeof seen === "boolean" ? seen : undefined;
}

// --- provider ------------------------------------------------------------------------------------

/** The provider of ServerDrain; every update sets the flag. */
export const serverDrainProvider = defineKind<ServerDrainInputs, ServerDrainOutputs>({
  fields: SERVER_DRAIN_FIELDS,
  outputs: NO_OUTPUTS,
  docs: DOCS,
  sendsNothingWhen: "never",
  calls: serverDrainCalls,

  async create(inputs, context) {
    const serverId = canonicalId(inputs.serverId);
    const draining = inputs.draining !== false;
    // A server whose record shows the declared state already is left as it is. A record without
    // the flag (the spec's) cannot show it: the flag is set, as it always was.
    if ((await drainingFlag(context.client(), serverId)) !== draining) await setDraining(context.client(), serverId, draining);
    return { id: serverId, outs: outputs(inputs) };
  },

  async read(id, props, context) {
    const server = await unlessGone(() => context.client().servers.getServers({ server_id: id }));
    if (!server) return GONE;
    // `is_draining` is not a documented field of the server record: without it (or with null) the
    // declared value is kept, and the user is told that drift cannot be seen.
    const seen = server.is_draining;
    if (typeof seen !== "boolean" && props.draining !== undefined)
      await context.warn(
        `${context.label("ServerDrain", server.server_id)}: Kasm's server record does not include the draining flag (is_draining), so refresh ` +
          `cannot see whether the server is still ${props.draining === false ? "not draining" : "draining"}; the declared value is kept. ` +
          `A change made in the Kasm UI is not noticed: check the server there when in doubt.`,
      );
    const inputs: Props = {
      // Keep the declared spelling when it names the same server, so refresh shows no change.
      ...(props.serverId !== undefined ? { serverId: same.id(props.serverId, server.server_id) ? props.serverId : server.server_id } : {}),
      ...(props.draining !== undefined ? { draining: typeof seen === "boolean" ? seen : props.draining } : {}),
    };
    return { id: server.server_id, props: outputs(inputs), inputs };
  },

  async update(id, _olds, news, _changedFields, context) {
    await setDraining(context.client(), id, news.draining !== false);
    return { outs: outputs(news) };
  },

  async delete(id, _state, context) {
    try {
      await context.client().servers.setDrainServer(SERVER_DRAIN_FIELDS.body<DrainServerParams>({ serverId: id, draining: false }));
    } catch (error) {
      // The server is gone: nothing is left to restore.
      if (isNotFound(error)) return;
      throw error;
    }
  },
});
