/**
 * examples/egress-vpn end to end: a WireGuard egress provider, two gateways, a mapping and a
 * credential, through the test engine against an emulator seeded with the example's seed.json and
 * the seed's key. One stack's lifecycle, in order: preview, up, a second up, a changed program
 * (gateway and mapping updated in place, the credential replaced: the API can neither update nor
 * delete one), refresh after changes made in Kasm, the policy packs, destroy.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestEngine } from "../../testing/engine";
import type { TestEmulator } from "../helpers/emulator";
import {
  SLOW,
  copyExample,
  editFile,
  exampleEngine,
  expectAllSame,
  expectOk,
  mandatory,
  ops,
  permissionsPack,
  resource,
  startExampleEmulator,
  strictHardeningPack,
  tempDir,
  warnings,
  type StackOptions,
} from "./helpers";

const CONTRACTORS = "e9e9e9e9e9e94e9e9e9e9e9e9e9e0001";
const WIREGUARD_KEY = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=";
/** Part of the Frankfurt gateway's config, a secret input. */
const FRANKFURT_PEER = "x4bZ0uG9n5xPp8wq1Zc3Y7m2L6kV0aR1sT9eD4hJ2fI=";

let emulator: TestEmulator;
let tmp: ReturnType<typeof tempDir>;
let seeded: any;
let engine: TestEngine;
let changedDir: string;

function stack(extra: Partial<StackOptions> = {}): TestEngine {
  return exampleEngine({
    example: "egress-vpn",
    emulator,
    dir: tmp.dir,
    config: { wireguardPrivateKey: WIREGUARD_KEY },
    secretConfig: ["wireguardPrivateKey"],
    ...extra,
  });
}

/** The egress objects in Kasm. */
async function egress() {
  const state = await emulator.state();
  const gateways = Object.values<any>(state.egressGateways);
  return {
    providers: Object.values<any>(state.egressProviders),
    gateway: (name: string) => gateways.find((g) => g.name === name),
    gateways,
    mappings: Object.values<any>(state.egressMappings),
    credentials: Object.values<any>(state.egressCredentials),
  };
}

beforeAll(async () => {
  tmp = tempDir("egress-vpn");
  emulator = await startExampleEmulator("egress-vpn");
  seeded = await emulator.state();
  engine = stack();
});

afterAll(async () => {
  await emulator?.close();
  tmp?.remove();
});

describe("examples/egress-vpn", () => {
  it("preview plans the provider, gateways, mapping and credential and creates nothing in Kasm", { timeout: SLOW }, async () => {
    const preview = await engine.preview();
    expectOk(preview);
    expect(ops(preview)).toEqual({
      "kasm-egress-vpn-dev": "create",
      "corporate-vpn": "create",
      frankfurt: "create",
      amsterdam: "create",
      "contractors-vpn": "create",
      "contractors-credential": "create",
    });
    expect(await emulator.state()).toEqual(seeded);
    expect(engine.readState()).toEqual([]);
  });

  it("up creates them in Kasm, with the gateway configs and the private key encrypted in the state", { timeout: SLOW }, async () => {
    const up = await engine.up();
    expectOk(up);
    expect(up.summary).toEqual({ create: 6 });
    const kasm = await egress();
    expect(kasm.providers).toEqual([expect.objectContaining({ name: "Corporate VPN", egress_provider_type: "wireguard", enabled: true })]);
    const provider = kasm.providers[0].egress_provider_id;
    const frankfurt = kasm.gateway("Frankfurt");
    const amsterdam = kasm.gateway("Amsterdam");
    expect(frankfurt).toMatchObject({ egress_provider_id: provider, country: "DE", city: "Frankfurt", config: expect.stringContaining(FRANKFURT_PEER) });
    expect(amsterdam).toMatchObject({ egress_provider_id: provider, country: "NL", city: "Amsterdam" });
    expect(kasm.mappings).toEqual([expect.objectContaining({ egress_provider_id: provider, group_id: CONTRACTORS, allow_all_gateways: false })]);
    expect([...kasm.mappings[0].selected_gateways].sort()).toEqual([frankfurt.egress_gateway_id, amsterdam.egress_gateway_id].sort());
    expect(kasm.credentials).toEqual([
      expect.objectContaining({
        egress_provider_id: provider,
        name: "contractors",
        group_id: CONTRACTORS,
        wireguard_private_key: WIREGUARD_KEY,
        limit_active_connections: true,
        active_connection_limit: 25,
      }),
    ]);
    expect(up.outputs).toEqual({ providerId: provider, gateways: ["Frankfurt", "Amsterdam"] });

    const text = readFileSync(engine.options.stateFile, "utf8");
    for (const secret of [WIREGUARD_KEY, FRANKFURT_PEER, "egress-secret"]) expect(text).not.toContain(secret);
  });

  it("a second up changes nothing", { timeout: SLOW }, async () => {
    const before = await emulator.state();
    expectAllSame(await engine.up());
    expect(await emulator.state()).toEqual(before);
  });

  it("a changed program updates a gateway and the mapping in place and replaces the credential, leaving the old one in Kasm", { timeout: SLOW }, async () => {
    const before = await egress();
    changedDir = copyExample("egress-vpn", tmp.dir);
    editFile(path.join(changedDir, "index.ts"), [
      [`city: "Amsterdam",`, `city: "Rotterdam",`],
      ["selectedGateways: [frankfurt.egressGatewayId, amsterdam.egressGatewayId],", "selectedGateways: [frankfurt.egressGatewayId],"],
      [`name: "contractors",`, `name: "contractors-2",`],
      ["activeConnectionLimit: 25,", "activeConnectionLimit: 10,"],
    ]);
    engine = stack({ programDir: changedDir });
    const up = await engine.up();
    expectOk(up);
    expect(ops(up)).toEqual({
      "kasm-egress-vpn-dev": "same",
      "corporate-vpn": "same",
      frankfurt: "same",
      amsterdam: "update",
      "contractors-vpn": "update",
      "contractors-credential": "replace",
    });
    expect(resource(up, "amsterdam").changed).toEqual(["city"]);
    expect(resource(up, "contractors-vpn").changed).toEqual(["selectedGateways"]);
    expect([...resource(up, "contractors-credential").changed].sort()).toEqual(["activeConnectionLimit", "name"]);
    expect(warnings(up)).toEqual([expect.stringMatching(/^EgressCredential 'contractors' \(\w+\) was removed from the Pulumi state but stays in Kasm/)]);
    expect(up.programOutput).not.toContain(WIREGUARD_KEY);

    const kasm = await egress();
    expect(kasm.gateway("Amsterdam")).toMatchObject({ egress_gateway_id: before.gateway("Amsterdam").egress_gateway_id, city: "Rotterdam" });
    expect(kasm.mappings[0].selected_gateways).toEqual([before.gateway("Frankfurt").egress_gateway_id]);
    expect(kasm.credentials.map((c) => [c.name, c.active_connection_limit]).sort()).toEqual([
      ["contractors", 25],
      ["contractors-2", 10],
    ]);
    expect(resource(up, "contractors-credential").id).toBe(kasm.credentials.find((c) => c.name === "contractors-2").egress_credential_id);
    expectAllSame(await engine.up());
  });

  it("refresh reads a gateway changed in Kasm and drops one deleted there; the next up puts them back", { timeout: SLOW }, async () => {
    const before = await egress();
    const frankfurt = before.gateway("Frankfurt");
    const amsterdam = before.gateway("Amsterdam");
    const changed = await emulator.call("update_egress_gateway", {
      target_egress_gateway: { egress_gateway_id: frankfurt.egress_gateway_id, city: "Offenbach" },
    });
    expect(changed.status).toBe(200);
    const deleted = await emulator.call("delete_egress_gateway", { target_egress_gateway: { egress_gateway_id: amsterdam.egress_gateway_id } });
    expect(deleted.status).toBe(200);

    const refresh = await engine.refresh();
    expectOk(refresh);
    expect(ops(refresh)).toEqual({
      "corporate-vpn": "read",
      frankfurt: "read",
      amsterdam: "delete",
      "contractors-vpn": "read",
      "contractors-credential": "read",
    });
    expect(resource(refresh, "frankfurt").changed).toEqual(["city"]);
    for (const name of ["corporate-vpn", "contractors-vpn", "contractors-credential"]) expect(resource(refresh, name).changed).toEqual([]);

    const up = await engine.up();
    expectOk(up);
    expect(ops(up)).toMatchObject({
      frankfurt: "update",
      amsterdam: "create",
      "corporate-vpn": "same",
      "contractors-vpn": "same",
      "contractors-credential": "same",
    });
    const after = await egress();
    expect(after.gateway("Frankfurt")).toMatchObject({ egress_gateway_id: frankfurt.egress_gateway_id, city: "Frankfurt" });
    expect(after.gateway("Amsterdam")).toMatchObject({ city: "Rotterdam", country: "NL" });
    expect(after.gateway("Amsterdam").egress_gateway_id).not.toBe(amsterdam.egress_gateway_id);
  });

  describe("policy packs", () => {
    it("pass: the hardening pack (every policy mandatory) and the permissions pack with the seed's key", { timeout: SLOW }, async () => {
      const preview = await stack({
        programDir: changedDir,
        policyPacks: [strictHardeningPack(), permissionsPack({ permissions: ["Global Admin"] })],
      }).preview();
      expectOk(preview);
      expect(mandatory(preview)).toEqual([]);
      expect(preview.policyViolations.filter((v) => v.policyPack.startsWith("kasm-hardening"))).toEqual([]);
    });

    it("fail: a credential without a connection limit (hardening), and a key lacking an egress permission (permissions)", { timeout: SLOW }, async () => {
      const before = await emulator.state();
      const unlimited = copyExample("egress-vpn", tmp.dir, "unlimited");
      editFile(path.join(unlimited, "index.ts"), [["  limitActiveConnections: true,\n  activeConnectionLimit: 25,\n", ""]]);
      // A second stack of the same objects, which the first stack created: its preview would fail
      // on them (they exist, without adopt) before the packs judge it, unless it reads nothing first.
      const hardening = await stack({
        programDir: unlimited,
        stack: "unlimited",
        policyPacks: [strictHardeningPack()],
        config: { wireguardPrivateKey: WIREGUARD_KEY, "kasm:checkBeforeChanges": "false" },
      }).preview();
      expect(hardening.ok).toBe(false);
      expect(mandatory(hardening)).toEqual(["egress-credential-connection-limit contractors-credential"]);

      const least = await stack({ programDir: changedDir, policyPacks: [permissionsPack({ permissions: ["Global Admin"] })] }).preview();
      const needed = /\n- Needed \(closed under the dependency rules\) by the stack's Kasm resources: (.*)/.exec(
        least.policyViolations.find((v) => v.policyName === "least-privilege")!.message,
      )![1];
      const permissions = needed.split(", ").map((p) => p.slice(1, -1));
      expect(permissions).toContain("Egress Credentials Create");
      const lacking = stack({
        programDir: changedDir,
        policyPacks: [permissionsPack({ permissions: permissions.filter((p) => p !== "Egress Credentials Create") })],
      });
      const preview = await lacking.preview();
      expect(preview.ok).toBe(false);
      expect(mandatory(preview)).toEqual(["resource-needs-permissions contractors-credential"]);
      expect(preview.policyViolations.find((v) => v.enforcementLevel === "mandatory")!.message).toContain("'Egress Credentials Create'");
      for (const v of [...preview.policyViolations, ...hardening.policyViolations]) expect(v.message).not.toContain(WIREGUARD_KEY);
      expect(await emulator.state()).toEqual(before);
    });
  });

  it("destroy deletes everything; with the provider, Kasm deletes the credentials the API cannot, so Kasm is as seeded", { timeout: SLOW }, async () => {
    const destroy = await engine.destroy();
    expectOk(destroy);
    expect(destroy.summary).toEqual({ delete: 6 });
    expect(warnings(destroy)).toEqual([expect.stringMatching(/^EgressCredential 'contractors-2' \(\w+\) was removed from the Pulumi state but stays in Kasm/)]);
    expect(engine.readState()).toEqual([]);
    expect(await emulator.state()).toEqual(seeded);
  });
});
