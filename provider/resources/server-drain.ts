/**
 * `ServerDrain`: holds a server's draining flag (a draining server takes no new sessions).
 *
 * API: set_drain_server, and get_servers to read the flag (`is_draining`). The resource's id is
 * the server's id. `draining` updates in place; another `serverId` replaces (the new server is
 * set, then the old one restored). Destroy restores the server to not draining, whatever it was
 * before Pulumi managed it, and succeeds when the server no longer exists. A server that
 * disappears from Kasm (removed in the UI) is dropped by refresh. There is nothing to adopt: every
 * server has the flag. Declare at most one ServerDrain per server.
 */
import { z } from "zod";
import { kasmClient } from "../runtime";
import {
  canonicalId,
  checkInputs,
  declared,
  diffInputs,
  GONE,
  isNotFound,
  KasmId,
  same,
  unlessGone,
  type FieldRule,
  type KindProvider,
  type Props,
} from "./kit";

// --- types ---------------------------------------------------------------------------------------

/** The inputs of a ServerDrain. */
export const ServerDrainInputs = z.strictObject({
  serverId: KasmId,
  /** Default: true. */
  draining: z.boolean().optional(),
});
export type ServerDrainInputs = z.infer<typeof ServerDrainInputs>;

/** A ServerDrain has no outputs besides its inputs; its id is the server's id. */
export type ServerDrainOutputs = Record<string, never>;

/** How each input compares; another server replaces. */
const INPUT_FIELDS: Readonly<Record<string, FieldRule>> = {
  serverId: { equal: same.id, replaces: true },
  draining: {},
};

// --- helpers -------------------------------------------------------------------------------------

function outputs(inputs: Props): Props {
  return declared(inputs, Object.keys(INPUT_FIELDS));
}

/** Set the flag; an unknown server is an error that says so. */
async function setDraining(serverId: string, draining: boolean): Promise<void> {
  try {
    await kasmClient().servers.setDrainServer({ server_id: serverId, is_draining: draining });
  } catch (error) {
    if (isNotFound(error))
      throw new Error(`Server ${serverId} does not exist in Kasm (${(error as { errorMessage?: string }).errorMessage ?? "not found"}).`);
    throw error;
  }
}

// --- provider ------------------------------------------------------------------------------------

export const serverDrainProvider: KindProvider = {
  async check(_olds, news) {
    const result = checkInputs(ServerDrainInputs, news);
    // The default is written into the inputs, so that the state says what is managed.
    return { ...result, inputs: { ...result.inputs, draining: news.draining ?? true } };
  },

  async diff(_id, olds, news) {
    return diffInputs(olds, news, INPUT_FIELDS);
  },

  async create(inputs) {
    const serverId = canonicalId(inputs.serverId);
    await setDraining(serverId, inputs.draining !== false);
    return { id: serverId, outs: outputs(inputs) };
  },

  async read(id, props) {
    const server = await unlessGone(() => kasmClient().servers.getServers({ server_id: id }));
    if (!server) return GONE;
    const inputs: Props = {
      // Keep the declared spelling when it names the same server, so refresh shows no change.
      ...(props.serverId !== undefined ? { serverId: same.id(props.serverId, server.server_id) ? props.serverId : server.server_id } : {}),
      ...(props.draining !== undefined ? { draining: server.is_draining === true } : {}),
    };
    return { id: server.server_id, props: outputs(inputs), inputs };
  },

  async update(id, _olds, news) {
    await setDraining(id, news.draining !== false);
    return { outs: outputs(news) };
  },

  async delete(id) {
    try {
      await kasmClient().servers.setDrainServer({ server_id: id, is_draining: false });
    } catch (error) {
      // The server is gone: nothing is left to restore.
      if (isNotFound(error)) return;
      throw error;
    }
  },
};
