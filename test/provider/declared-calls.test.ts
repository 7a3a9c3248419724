/**
 * A step of a kind calls only what its kind's calls declaration lists for it
 * (provider/resources/framework/connections.ts): the client the step is handed refuses any other
 * operation, naming the kind, the step and the operation, before a request is sent, also when a
 * shared lookup would answer it from a listing. Against the emulator over HTTP, counted from its
 * request log. That the declarations cover what every kind's steps do is what the other provider
 * tests show, each kind's lifecycle run through the registry's providers with no refusal, and
 * the permissions consistency test (test/policy/consistency.test.ts) with random stacks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KIND_ROWS, OPERATIONS, type LifecycleStep, type OperationName } from "../../permissions";
import { declareCalls, plan } from "../../permissions/planned-calls";
import { kinds } from "../../provider";
import type { AllowedCalls } from "../../provider/api/allowed-calls";
import { declareFields, KasmUndeclaredCallError, NO_OUTPUTS, type Kind, type KindContext, type Props } from "../../provider/resources/framework";
import { allowedOperations, withDeclaredCalls } from "../../provider/resources/framework/connections";
import { defineKind } from "../../provider/resources/framework/define-kind";
import { serverDrainCalls } from "../../provider/resources/server-drain.calls";
import { ConnectionRegistry, contextIn } from "../../provider/runtime";
import { z } from "zod";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { TEST_API_NAMES } from "../helpers/vocabulary";

const ZONE = "0a000000000000000000000000000001";
const SERVER = "3d000000000000000000000000000001";
const STEPS: readonly LifecycleStep[] = ["create", "read", "update", "delete"];

let emulator: TestEmulator;
let registry: ConnectionRegistry;
let context: KindContext;

beforeAll(async () => {
  emulator = await startTestEmulator({
    zones: [{ zone_id: ZONE, zone_name: "default" }],
    servers: [{ server_id: SERVER, hostname: "ws1.example.com" }],
  });
  const config = new Map([
    ["kasm:baseUrl", emulator.url],
    ["kasm:apiKey", ADMIN.key],
    ["kasm:apiKeySecret", ADMIN.secret],
    ["kasm:apiNames", TEST_API_NAMES],
    ["kasm:maxRetries", "0"],
  ]);
  registry = new ConnectionRegistry((key) => config.get(key), {});
  context = contextIn(registry, undefined, "drain", { warn: async () => undefined, note: async () => undefined });
});
afterAll(async () => {
  await registry?.existingClient(undefined)?.close();
  await emulator?.close();
});

/** The operations the emulator served while `run` ran, in order, and how `run` ended. */
async function callsDuring(run: () => Promise<unknown>): Promise<{ calls: string[]; error: unknown }> {
  const from = emulator.requests.length;
  let error: unknown;
  try {
    await run();
  } catch (caught) {
    error = caught;
  }
  return { calls: emulator.requests.slice(from).map((line) => line.split(" ")[0]), error };
}

/** The refusal's words, as the error says them. */
const refusal = (kind: string, step: string, operation: string) =>
  `${kind} ${step} called ${operation}, which the ${kind} kind's \`calls\` declaration does not list for its ${step} step: ` +
  "the provider refused it before sending anything. This is a fault of the provider: the permission policies judge " +
  "API keys by the declaration, so the call must be listed there (with its circumstances) or not be made.";

/** A made-up kind built by defineKind, declared as the ServerDrain of a test, whose steps call more than they declare. */
const overreaching = defineKind<{ serverId: string }>({
  fields: declareFields({ serverId: { type: z.string(), role: "key", replaces: true, doc: "" } }),
  outputs: NO_OUTPUTS,
  docs: { description: "", arguments: "", example: "", limits: "" },
  sendsNothingWhen: "never",
  // Create lists the server's read only; read, update and delete list nothing.
  calls: declareCalls("ServerDrain", () => ({ create: [plan("get_servers")], read: [], update: [], delete: [] })),

  async create(inputs, kindContext) {
    const client = kindContext.client();
    await client.servers.getServers({ server_id: inputs.serverId });
    // Not declared: refused, and never sent.
    await client.servers.setDrainServer({ server_id: inputs.serverId, is_draining: true });
    return { id: inputs.serverId, outs: { serverId: inputs.serverId } };
  },

  async read(id, state, kindContext) {
    // A user read served from the shared get_users pages stands for get_user, which read does not list.
    await kindContext.client().userReads.read(id);
    return { id, props: state };
  },

  async update(_id, _olds, news) {
    return { outs: news };
  },

  async delete(id, _state, kindContext) {
    // A lookup from the listing the checks before creates share stands for get_staging_configs.
    await kindContext.client().keys.stagingConfig({ zone_id: ZONE, image_id: id });
  },
});

describe("a step calls only what its kind declares", () => {
  it("an operation the step's declaration does not list is refused, naming kind, step and operation, and never sent", async () => {
    const { calls, error } = await callsDuring(() => overreaching.create({ serverId: SERVER }, context));
    expect(error).toBeInstanceOf(KasmUndeclaredCallError);
    expect((error as Error).message).toBe(refusal("ServerDrain", "create", "set_drain_server"));
    expect(error).toMatchObject({ kind: "ServerDrain", step: "create", operation: "set_drain_server" });
    // The declared read went over HTTP; the refused write did not.
    expect(calls).toEqual(["get_servers"]);
  });

  it("a shared lookup is refused as the call it stands for, before it reads or answers from a listing", async () => {
    const read = await callsDuring(() => overreaching.read(SERVER, { serverId: SERVER }, context));
    expect((read.error as Error).message).toBe(refusal("ServerDrain", "read", "get_user"));
    expect(read.calls).toEqual([]);
    const remove = await callsDuring(() => overreaching.delete("7e000000000000000000000000000001", { serverId: SERVER }, context));
    expect((remove.error as Error).message).toBe(refusal("ServerDrain", "delete", "get_staging_configs"));
    expect(remove.calls).toEqual([]);
  });

  it("the real ServerDrain provider, handed a declaration without its write, fails before the write is sent", async () => {
    const drain = kinds.ServerDrain;
    // The registry's provider, its create's declaration less set_drain_server: a view of the step's view allows what both allow.
    const narrowed = withDeclaredCalls({
      ...drain,
      manifest: {
        ...drain.manifest,
        calls: declareCalls("ServerDrain", (props, knowledge) => {
          const steps = serverDrainCalls.steps(props, knowledge);
          return { ...steps, create: steps.create.filter((call) => call.operation !== "set_drain_server") };
        }),
      },
    } as Kind);
    const inputs = (await drain.check({}, { serverId: SERVER, draining: true }, context)).inputs as Props;
    const { calls, error } = await callsDuring(() => narrowed.create(inputs, context));
    expect((error as Error).message).toBe(refusal("ServerDrain", "create", "set_drain_server"));
    expect(calls).toEqual(["get_servers"]);
    // With its own declaration, the same create drains the server.
    const applied = await callsDuring(() => (drain as Kind).create(inputs, context));
    expect(applied.error).toBeUndefined();
    expect(applied.calls).toEqual(["get_servers", "set_drain_server"]);
    await (drain as Kind).delete(SERVER, { serverId: SERVER, draining: true }, context);
  });
});

describe("every kind's steps are held to its own declaration", () => {
  it.each(Object.keys(kinds) as (keyof typeof kinds)[])("%s: its manifest's declaration is the permissions table's row", (kind) => {
    const calls = (kinds[kind] as Kind).manifest.calls;
    expect(calls.kind).toBe(kind);
    expect(calls.steps).toBe(KIND_ROWS[kind]);
  });

  it.each(Object.keys(kinds) as (keyof typeof kinds)[])("%s: each step that asks for a client gets a view allowing only its declared calls", async (kind) => {
    const provider = kinds[kind] as Kind;
    const asked: Partial<Record<LifecycleStep, AllowedCalls>> = {};
    /** A context whose client records the view a step asks for, and stops the step there. */
    const recording = (step: LifecycleStep): KindContext => {
      const stop = new Error("stopped at the client");
      const client = {
        allowingOnly(allowed: AllowedCalls) {
          asked[step] = allowed;
          throw stop;
        },
      };
      return { ...context, client: () => client as never, existingClient: () => client as never };
    };
    const props: Props = {};
    await provider.create(props, recording("create")).catch(() => undefined);
    await provider.read("id", props, recording("read")).catch(() => undefined);
    await provider.update("id", props, props, recording("update")).catch(() => undefined);
    await provider.delete("id", props, recording("delete")).catch(() => undefined);
    const steps = STEPS.filter((step) => asked[step] !== undefined);
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) {
      const allowed = allowedOperations(provider.manifest.calls, step, props);
      for (const operation of Object.keys(OPERATIONS) as OperationName[])
        expect(asked[step]!.allows(operation), `${step} ${operation}`).toBe(allowed.has(operation));
      const declared = KIND_ROWS[kind](props, {
        groupIsSystem: () => undefined,
        groupIsAdministrators: () => undefined,
        userIsGlobalAdmin: () => undefined,
        userHasSessions: () => undefined,
        userIsNew: () => false,
      })[step];
      for (const call of declared) expect(allowed.has(call.operation)).toBe(true);
    }
  });
});
