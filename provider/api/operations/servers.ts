/** Operations of the servers area: read a server, drain it, import servers from a CSV file. */
import { z } from "zod";
import { canonicalId } from "../../../permissions/planned-calls";
import { KasmNotFoundError } from "../errors";
import type { BatchView } from "../schemas/batch";
import { Empty } from "../schemas/common";
import { BatchServersResult, Server, type DrainServerParams } from "../schemas/servers";
import type { KasmApi } from "../transport";

/**
 * Import servers from a CSV file (`batch_create_server`, multipart; needs Servers Create, and
 * Users Modify when the `assigned_username` column is used). Answers with the created servers
 * (`view` `api`, the default here), the validation report (`table`) or both (`all`).
 *
 * Not repeated after a failure that may have reached the server; check before importing again.
 */
export async function batchCreateServer(api: KasmApi, params: { csv: string; view?: BatchView; filename?: string }): Promise<BatchServersResult> {
  const header = params.csv.split(/\r?\n/, 1)[0] ?? "";
  return api.transport.callMultipart(
    "batch_create_server",
    { csv: params.csv, filename: params.filename },
    { view: params.view ?? "api" },
    BatchServersResult,
    { context: { assignsUsers: /(^|,)\s*"?assigned_username/i.test(header) } },
  );
}

/** Set a server's draining status (`set_drain_server`; needs Agents Modify). */
export async function setDrainServer(api: KasmApi, params: DrainServerParams): Promise<void> {
  await api.transport.call("set_drain_server", { target_server: params }, Empty);
}

/**
 * The answer of `get_servers`: `{server}` in the API documentation; a released Kasm (1.15)
 * answers `{servers: [...]}`, a list even when one server id is asked for.
 */
const ServersAnswer = z.union([z.object({ server: Server }), z.object({ servers: z.array(Server) })]);

/**
 * Every server of the installation (`get_servers` without `target_server`; needs Servers View or
 * Agents View). Only a released Kasm answers so (`kasm:apiNames product`: every server, in its
 * `{servers: [...]}` shape; 1.15 decompile, `admin_api.py`); the API documentation's `get_servers`
 * reads one server by id, and refuses a call without one.
 */
export async function listServers(api: KasmApi): Promise<Server[]> {
  const answer = await api.transport.call("get_servers", {}, z.object({ servers: z.array(Server) }));
  return answer.servers;
}

/**
 * Read one server (`get_servers`, despite its name; needs Servers View or Agents View). Either
 * answer shape is read (see {@link ServersAnswer}); from a list, the server with the asked id.
 *
 * @throws {@link KasmNotFoundError} `Invalid Server ID (...)`, or a list without that server.
 */
export async function getServers(api: KasmApi, params: { server_id: string }): Promise<Server> {
  const answer = await api.transport.call("get_servers", { target_server: params }, ServersAnswer);
  if ("server" in answer) return answer.server;
  const wanted = canonicalId(params.server_id);
  const server = answer.servers.find((s) => canonicalId(s.server_id) === wanted);
  if (server) return server;
  throw new KasmNotFoundError({
    operation: "get_servers",
    status: 200,
    errorMessage: `the answer lists ${answer.servers.length} server(s), none with server_id ${params.server_id}`,
  });
}
