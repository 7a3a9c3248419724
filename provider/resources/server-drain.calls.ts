/**
 * What the ServerDrain provider (`./server-drain.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import { declareCalls, plan } from "../../permissions/planned-calls";

/**
 * What each step of a ServerDrain calls.
 */
export const serverDrainCalls = declareCalls("ServerDrain", () => ({
  // Create reads the server first, and sets nothing when its record shows the flag as declared.
  create: [plan("get_servers"), plan("set_drain_server", {}, { condition: "unless the server's record shows the declared state" })],
  read: [plan("get_servers")],
  update: [plan("set_drain_server")],
  // Destroy sets the server back to not draining.
  delete: [plan("set_drain_server")],
}));
