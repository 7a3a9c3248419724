/**
 * The importer's one generic writer of areas (`importer/write/area.ts`), on made-up areas over a
 * hand-made inventory: what it writes for a record, a record it may not declare, an area not read
 * and one not wanted; names made unique, variables and links for later areas, the summary's
 * reasons counted, consecutive areas sharing a section and a step of its own closing it.
 */
import { describe, expect, it } from "vitest";
import type { ImportKind } from "../../importer/kinds";
import type { Inventory } from "../../importer/read";
import { writeSteps, type Area, type Section } from "../../importer/write/area";
import { ProgramWriter, type ProgramSettings } from "../../importer/write/writer";

const hex = (prefix: string, n: number) => `${prefix}${String(n).padStart(32 - prefix.length, "0")}`;

/** Four providers, two of them of a name the area refuses, and one gateway. */
const INVENTORY: Inventory = {
  apiNames: "spec",
  userGroupsVisible: false,
  assignedServersVisible: false,
  egressProviders: [
    { egress_provider_id: hex("e1", 1), name: "VPN", egress_provider_type: "wireguard", enabled: true },
    { egress_provider_id: hex("e1", 2), name: "VPN", egress_provider_type: "openvpn", enabled: true },
    { egress_provider_id: hex("e1", 3), name: "refused", egress_provider_type: "custom", enabled: false },
    { egress_provider_id: hex("e1", 4), name: "refused", egress_provider_type: "custom", enabled: true },
  ],
  egressGateways: [{ egress_gateway_id: hex("e2", 1), egress_provider_id: hex("e1", 2), name: "Frankfurt" }],
  skipped: [{ kind: "egress-gateways", count: 4, reason: "a reason the reader gave" }],
} as unknown as Inventory;

const SHARED: Section = { title: "Shared", comment: "Two areas in one section." };

type ProviderRecord = NonNullable<Inventory["egressProviders"]>[number];
type GatewayRecord = NonNullable<Inventory["egressGateways"]>[number];

const PROVIDERS: Area<ProviderRecord> = {
  area: "egress-providers",
  kind: "EgressProvider",
  section: SHARED,
  variablePrefix: "provider",
  records: (inventory) => inventory.egressProviders,
  notDeclared: (provider) => (provider.name === "refused" ? "refused by the area" : undefined),
  name: (provider) => [provider.name, "egress-provider"],
  id: (provider) => provider.egress_provider_id,
  inputs: (provider) => ({ name: provider.name, enabled: provider.enabled ?? undefined }),
};

const GATEWAYS: Area<GatewayRecord> = {
  area: "egress-gateways",
  kind: "EgressGateway",
  section: SHARED,
  records: (inventory) => inventory.egressGateways,
  name: (gateway, w) => [`${w.nameOf("EgressProvider", gateway.egress_provider_id) ?? "undeclared"}-${gateway.name}`, "egress-gateway"],
  id: (gateway) => gateway.egress_gateway_id,
  inputs: (gateway, w, name) => ({ egressProviderId: w.link("EgressProvider", gateway.egress_provider_id), config: w.secret(`${name}Config`, "a secret") }),
};

const MAPPINGS_NOT_READ: Area<never> = {
  area: "egress-mappings",
  kind: "EgressProviderMapping",
  section: { title: "Not read", comment: "" },
  records: () => undefined,
  name: () => ["never", "never"],
  id: () => "never",
  inputs: () => ({}),
};

function writerFor(kinds: readonly ImportKind[]): ProgramWriter {
  const settings: ProgramSettings = {
    kinds: new Set(kinds),
    users: "set",
    project: "p",
    baseUrl: "http://kasm",
    apiKey: "k",
    protect: false,
    packageVersion: "1.0.0",
    pulumiRange: ">=3.216.0 <4",
  };
  return new ProgramWriter(INVENTORY, settings);
}

describe("the generic area writer", () => {
  it("declares each record it may, counts the reasons for the rest, and links what it declares with a variable", () => {
    const w = writerFor(["egress-providers", "egress-gateways", "egress-mappings"]);
    writeSteps(w, [PROVIDERS, GATEWAYS, MAPPINGS_NOT_READ]);

    expect(w.sections).toHaveLength(1);
    const [section] = w.sections;
    expect(section).toMatch(/^\/\/ --- Shared -+\n\/\/ Two areas in one section\.\n/);
    // Names made unique, variables from them, the refused provider left out.
    expect(section).toContain('const vpn = new kasm.EgressProvider("vpn", {\n  name: "VPN",\n  enabled: true,\n}, imported);');
    expect(section).toContain('const vpn2 = new kasm.EgressProvider("vpn-2", {');
    expect(section).not.toContain("refused");
    // The later area refers to the declared provider through its variable, and names itself after it.
    expect(section).toContain(
      'new kasm.EgressGateway("vpn-2-frankfurt", {\n  egressProviderId: vpn2.egressProviderId,\n  config: config.requireSecret("vpn-2-frankfurtConfig"),\n}, imported);',
    );
    expect(w.secrets).toEqual([{ key: "vpn-2-frankfurtConfig", what: "a secret" }]);
    expect(w.variablesOf("EgressProvider")).toEqual(["vpn", "vpn2"]);

    expect(w.summary).toEqual([
      { kind: "Egress providers", found: 4, declared: 2, skipped: ["2: refused by the area"] },
      { kind: "Egress gateways", found: 1, declared: 1, skipped: ["4: a reason the reader gave"] },
      { kind: "Egress mappings", found: undefined, declared: 0, skipped: [] },
    ]);
    expect(w.pulumiImports).toEqual([
      { type: "kasm:index:EgressProvider", name: "vpn", id: hex("e1", 1) },
      { type: "kasm:index:EgressProvider", name: "vpn-2", id: hex("e1", 2) },
      { type: "kasm:index:EgressGateway", name: "vpn-2-frankfurt", id: hex("e2", 1) },
    ]);
  });

  it("writes nothing, not even a summary line, for an area that is not wanted", () => {
    const w = writerFor(["egress-gateways"]);
    writeSteps(w, [PROVIDERS, GATEWAYS]);
    expect(w.summary.map((row) => row.kind)).toEqual(["Egress gateways"]);
    // The provider is not declared: no name and no link to refer to it by (an undefined input is left out).
    expect(w.sections[0]).toContain(
      'new kasm.EgressGateway("undeclared-frankfurt", {\n  config: config.requireSecret("undeclared-frankfurtConfig"),\n}, imported);',
    );
    expect(w.pulumiImports.map((entry) => entry.type)).toEqual(["kasm:index:EgressGateway"]);
  });

  it("closes a shared section at a step of its own, which writes in between", () => {
    const w = writerFor(["egress-providers", "egress-gateways"]);
    writeSteps(w, [PROVIDERS, (writer) => writer.section("Own step", "Written by a function.", "// nothing\n"), GATEWAYS]);
    expect(w.sections.map((s) => s.split("\n")[0].replace(/ -+$/, ""))).toEqual(["// --- Shared", "// --- Own step", "// --- Shared"]);
  });
});
