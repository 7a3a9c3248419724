/**
 * LicenseActivation through Pulumi's real dynamic-provider host against the emulator: check,
 * activation, diff (every change replaces), refresh keeping the last known state (Kasm cannot read
 * licenses), replacement, destroy forgetting with a warning, and a refused activation that keeps
 * the activation key out of every error and log. Then the warning's way to the engine.
 */
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { engineAddressFromArgv, warn } from "../../provider/engine-log";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

/** An armored activation key; a secret that must never show up in an error or a log. */
const KEY = "-----BEGIN ACTIVATION KEY-----\nc2VjcmV0LWFjdGl2YXRpb24ta2V5LTdmM2E=\n-----END ACTIVATION KEY-----";
const KEY_BODY = "c2VjcmV0LWFjdGl2YXRpb24ta2V5LTdmM2E=";
const UNKNOWN_KEY = "-----BEGIN ACTIVATION KEY-----\nbm90LWEta25vd24ta2V5LTkxYjQ=\n-----END ACTIVATION KEY-----";
const UNKNOWN_KEY_BODY = "bm90LWEta25vd24ta2V5LTkxYjQ=";

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator({
    activationKeys: [{ activation_key: KEY, seats: 20, license_type: "Per Concurrent Session", features: { branding: false } }],
  });
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

async function licensesInKasm(): Promise<Record<string, { limit: number; issued_to: string | null }>> {
  return (await emulator.state()).licenses;
}

describe("LicenseActivation", () => {
  it("check refuses bad input, naming the property and never quoting the key, before any request", async () => {
    const license = new Driven(host, "LicenseActivation", "bad");
    const before = emulator.requests.length;
    const { failures } = await license.check({ activationKey: "   ", seats: 0, issuedTo: 7, colour: "blue" });
    // The key is named in the reason, not as the property: the CLI would print its value beside it.
    expect(failures.map((f) => f.property).sort()).toEqual(["", "(inputs)", "issuedTo", "seats"]);
    expect(failures.find((f) => f.property === "")!.reason).toMatch(/^activationKey /);
    expect(failures.find((f) => f.property === "seats")?.reason).toMatch(/1 or more/);
    expect((await license.check({ activationKey: KEY, seats: 2.5 })).failures).toEqual([{ property: "seats", reason: "seats must be a whole number" }]);
    expect((await license.check({ seats: 1 })).failures).toEqual([{ property: "", reason: expect.stringMatching(/^activationKey /) }]);
    expect((await license.check({ activationKey: 42 })).failures[0].reason).not.toContain("42");
    expect(emulator.requests.length).toBe(before);
  });

  it("activates, plans no change for the same inputs, replaces on any change, keeps its state on refresh, and warns on destroy", async () => {
    const license = new Driven(host, "LicenseActivation", "prod");
    const inputs = { activationKey: KEY, seats: 4, issuedTo: "ACME" };
    const state = await license.create(inputs);
    expect(license.id).toMatch(/^[0-9a-f]{32}$/);
    expect(state).toMatchObject({
      ...inputs,
      licenseId: license.id,
      limit: 4,
      isVerified: true,
      licenseType: "Per Concurrent Session",
      sku: "PER-CONCURRENT-SESSION",
      features: { sessionCasting: true, autoScaling: true, branding: false },
    });
    expect(typeof state.expiration).toBe("string");
    expect(typeof state.issuedAt).toBe("string");
    expect((await licensesInKasm())[license.id]).toMatchObject({ limit: 4, issued_to: "ACME" });

    // A second up: no change. Any change, leaving an input out included, activates again.
    expect(await license.diff(inputs)).toMatchObject({ changes: "none", replaces: [] });
    expect(await license.diff({ ...inputs, seats: 5 })).toMatchObject({ changes: "some", replaces: ["seats"] });
    expect(await license.diff({ activationKey: KEY, seats: 4 })).toMatchObject({ changes: "some", replaces: ["issuedTo"] });
    expect(await license.diff({ ...inputs, activationKey: UNKNOWN_KEY })).toMatchObject({ changes: "some", replaces: ["activationKey"] });

    // Refresh: Kasm cannot read licenses, so the last known state is kept, without a request.
    const before = emulator.requests.length;
    const refreshed = await license.read();
    expect(refreshed).toMatchObject({ id: license.id, properties: state, inputs });
    expect(emulator.requests.length).toBe(before);

    // Replacement, as the engine runs it: activate again, then forget the old one.
    const next = new Driven(host, "LicenseActivation", "prod");
    await next.create({ ...inputs, seats: 5 });
    expect(next.id).not.toBe(license.id);
    await license.delete();
    const licenses = await licensesInKasm();
    expect(licenses[next.id]).toMatchObject({ limit: 5 });
    // Destroy only forgets: the license stays applied in Kasm, and the user is told.
    expect(licenses[license.id]).toMatchObject({ limit: 4 });
    const stderr = host.stderr.join("");
    expect(stderr).toContain(`warning: LicenseActivation ${license.id}: Kasm has no operation to remove a license`);
    expect(stderr).toContain("(4 seat(s))");

    await next.delete();
    expect(host.stderr.join("")).not.toContain(KEY_BODY);
  });

  it("a refused activation says why, and the key stays out of the error and the host's stderr", async () => {
    const unknown = new Driven(host, "LicenseActivation", "unknown-key");
    const refused = await unknown.create({ activationKey: UNKNOWN_KEY }).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/activate.*Error during activation: Invalid activation key/s);
    expect((refused as Error).message).not.toContain(UNKNOWN_KEY_BODY);

    const greedy = new Driven(host, "LicenseActivation", "too-many");
    const tooMany = await greedy.create({ activationKey: KEY, seats: 1000 }).catch((e: Error) => e);
    expect((tooMany as Error).message).toMatch(/Error during activation: Requested seats \(1000\) exceed/);
    expect((tooMany as Error).message).not.toContain(KEY_BODY);

    const stderr = host.stderr.join("");
    expect(stderr).not.toContain(KEY_BODY);
    expect(stderr).not.toContain(UNKNOWN_KEY_BODY);
  });
});

describe("warnings to the engine", () => {
  it("finds the engine address among the host's arguments", () => {
    expect(engineAddressFromArgv(["node", "dynamic-provider", "127.0.0.1:51234"])).toBe("127.0.0.1:51234");
    expect(engineAddressFromArgv(["node", "dynamic-provider", "--logtostderr", "-v=9", "localhost:4000"])).toBe("localhost:4000");
    expect(engineAddressFromArgv(["node", "vitest", "run"])).toBeUndefined();
  });

  it("sends a WARNING through Engine.Log when the engine answers, and falls back to stderr when it does not", async () => {
    const received: { severity: number; message: string }[] = [];
    const server = new grpc.Server();
    server.addService(engrpc.EngineService, {
      log: (call: grpc.ServerUnaryCall<engproto.LogRequest, emptyproto.Empty>, callback: grpc.sendUnaryData<emptyproto.Empty>) => {
        received.push({ severity: call.request.getSeverity(), message: call.request.getMessage() });
        callback(null, new emptyproto.Empty());
      },
    } as never);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, p) => (error ? reject(error) : resolve(p))),
    );
    try {
      expect(await warn("the license stays applied", { engineAddress: `127.0.0.1:${port}` })).toBe("engine");
      expect(received).toEqual([{ severity: engproto.LogSeverity.WARNING, message: "the license stays applied" }]);
    } finally {
      server.forceShutdown();
    }
    // Nothing listens on port 1: the warning goes to stderr instead of failing.
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(await warn("nobody listens", { engineAddress: "127.0.0.1:1" })).toBe("stderr");
      expect(write).toHaveBeenCalledWith("warning: nobody listens\n");
    } finally {
      write.mockRestore();
    }
  });
});
