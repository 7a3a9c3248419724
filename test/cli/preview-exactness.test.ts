/**
 * A preview shows what `up` will do, and nothing else, for every reference between kinds: one
 * program in which each kind that refers to another kind's object does so (the references
 * enumerated from the kinds' manifests, so a new one fails here until the program makes it), in
 * both forms through the `pulumi` CLI: TypeScript on the dynamic classes, and YAML on the native
 * provider. Changing a field of every referenced object that does not change its id previews
 * exactly those objects' updates, and `up` does exactly that; replacing the referenced objects
 * (`--replace`) previews each dependent's replacement where its reference replaces it, and its
 * update where it does not. The test engine, given the TypeScript program, agrees with the CLI.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kinds } from "../../provider";
import { TestEngine } from "../../testing/engine";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { ref, referencedBy, typescriptProgram, uncoveredReferences, yamlProgram, type Declaration } from "../helpers/reference-programs";
import { PASSPHRASE, SLOW, tempDir } from "../e2e/helpers";
import { hasPulumi, measuredStep, PulumiCli } from "./pulumi-cli";

const ZONE = "0d2f2c0a6c8e4f4e9a0b1c2d3e4f5a6b";
const SERVER = "5e5e5e5e5e5e4e5e9e5e5e5e5e5e0001";
const SEED = {
  zones: [{ zone_id: ZONE, zone_name: "default" }],
  servers: [{ server_id: SERVER, hostname: "build-box.example.org", zone_name: "default" }],
};

/** The objects others refer to, with the field each changes that keeps its id. */
const REFERENCED = {
  alice: (changed: boolean): Declaration => ({ name: "alice", kind: "User", properties: { username: "alice", firstName: changed ? "Alicia" : "Alice" } }),
  bob: (changed: boolean): Declaration => ({ name: "bob", kind: "User", properties: { username: "bob", firstName: changed ? "Robert" : "Bob" } }),
  eng: (changed: boolean): Declaration => ({ name: "eng", kind: "Group", properties: { name: "Engineering", priority: 50, description: changed ? "Builds the product" : "Builds" } }),
  chrome: (changed: boolean): Declaration => ({
    name: "chrome",
    kind: "Workspace",
    properties: { name: "kasmweb/chrome:1.16.0", friendlyName: "Chrome", cores: 1, memory: 1_024_000_000, description: changed ? "The browser" : "A browser" },
  }),
  vpn: (changed: boolean): Declaration => ({ name: "vpn", kind: "EgressProvider", properties: { name: "Corporate VPN", egressProviderType: "wireguard", enabled: !changed } }),
  fra: (changed: boolean): Declaration => ({
    name: "fra",
    kind: "EgressGateway",
    properties: { egressProviderId: ref("vpn"), name: "Frankfurt", country: "DE", city: changed ? "Frankfurt am Main" : "Frankfurt" },
  }),
};

/** Every reference between kinds, each made at least once. */
const DEPENDENTS: readonly Declaration[] = [
  { name: "alice-attributes", kind: "UserAttributes", properties: { userId: ref("alice"), showTips: true } },
  { name: "alice-engineering", kind: "GroupMembership", properties: { userId: ref("alice"), groupId: ref("eng") } },
  { name: "bob-groups", kind: "UserGroups", properties: { userId: ref("bob"), groupIds: [ref("eng")] } },
  { name: "alice-box", kind: "UserServerAssignment", properties: { userId: ref("alice"), serverId: SERVER } },
  { name: "team", kind: "UserSet", properties: { users: [{ username: "carol", firstName: "Carol", groups: ["Engineering"] }], groupIds: { Engineering: ref("eng") } } },
  { name: "chrome-pool", kind: "StagingConfig", properties: { zoneId: ZONE, imageId: ref("chrome"), numSessions: 1, expiration: 1 } },
  { name: "chrome-link", kind: "CastConfig", properties: { castingConfigName: "Lobby", key: "lobby", imageId: ref("chrome"), groupId: ref("eng") } },
  { name: "eng-chrome", kind: "GroupWorkspace", properties: { groupId: ref("eng"), imageId: ref("chrome") } },
  { name: "vpn-alice", kind: "EgressProviderMapping", properties: { egressProviderId: ref("vpn"), userId: ref("alice"), allowAllGateways: true } },
  { name: "vpn-eng", kind: "EgressProviderMapping", properties: { egressProviderId: ref("vpn"), groupId: ref("eng"), selectedGateways: [ref("fra")] } },
  { name: "vpn-chrome", kind: "EgressProviderMapping", properties: { egressProviderId: ref("vpn"), imageId: ref("chrome"), allowAllGateways: true } },
  { name: "alice-key", kind: "EgressCredential", properties: { egressProviderId: ref("vpn"), name: "alice", userId: ref("alice"), allowAllGateways: true, wireguardPrivateKey: "a-private-key" } },
  { name: "eng-key", kind: "EgressCredential", properties: { egressProviderId: ref("vpn"), name: "engineering", groupId: ref("eng"), selectedGateways: [ref("fra")], wireguardPrivateKey: "another-key" } },
  { name: "chrome-key", kind: "EgressCredential", properties: { egressProviderId: ref("vpn"), name: "chrome", imageId: ref("chrome"), allowAllGateways: true, wireguardPrivateKey: "a-third-key" } },
];

/** The program, with the referenced objects' id-keeping fields changed or not. */
function program(changed: boolean): Declaration[] {
  return [...Object.values(REFERENCED).map((declare) => declare(changed)), ...DEPENDENTS];
}

const REFERENCED_NAMES = Object.keys(REFERENCED);
const NAMES = program(false).map((d) => d.name);

/**
 * What a preview with the declarations `replaced` replaced shows for each declaration: a
 * replacement where a reference to a replaced object replaces (the kind's field rule says so),
 * which replaces what refers to it in turn; an update where a reference to one does not; the
 * same elsewhere. An update keeps the object's id, so nothing past it changes.
 */
function expectedAfterReplacing(replaced: readonly string[]): Record<string, string> {
  const ops: Record<string, string> = {};
  for (const declaration of program(false)) {
    if (replaced.includes(declaration.name)) {
      ops[declaration.name] = "replace";
      continue;
    }
    const fields = kinds[declaration.kind].manifest.fields;
    const touched = Object.entries(referencedBy(declaration)).filter(([, names]) => names.some((name) => ops[name] === "replace"));
    ops[declaration.name] = touched.length === 0 ? "same" : touched.some(([input]) => fields[input].replaces) ? "replace" : "update";
  }
  return ops;
}

/** The operations of the program's own resources (the stack and the explicit provider left out). */
const ofProgram = (ops: Record<string, string>) => Object.fromEntries(NAMES.map((name) => [name, ops[name] ?? "(none)"]));

type Form = "typescript" | "yaml";

/** A stack of the program in one form, through the CLI, on an emulator of its own speaking the product's names. */
async function cliStack(form: Form, dir: string, emulator: TestEmulator) {
  const programDir = path.join(dir, "program");
  mkdirSync(programDir, { recursive: true });
  const write = (changed: boolean) => {
    if (form === "yaml") writeFileSync(path.join(programDir, "Pulumi.yaml"), yamlProgram(program(changed), "exact-previews", emulator.url, "product"));
    else {
      writeFileSync(path.join(programDir, "Pulumi.yaml"), "name: exact-previews\nruntime: nodejs\n");
      writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: "exact-previews", main: "index.ts" }));
      writeFileSync(path.join(programDir, "index.ts"), typescriptProgram(program(changed)));
    }
  };
  write(false);
  const settings = { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret, "kasm:maxRetries": "1", "kasm:apiNames": "product" };
  const cli = new PulumiCli({
    programDir,
    stack: "dev",
    workDir: path.join(dir, "work"),
    passphrase: PASSPHRASE,
    config: form === "typescript" ? settings : {},
    secretKeys: form === "typescript" ? ["kasm:apiKeySecret"] : [],
  });
  await cli.init();
  return { cli, write };
}

describe("the program of exact previews", () => {
  it("makes every reference between kinds that the kinds declare", () => {
    expect(uncoveredReferences(program(false))).toEqual([]);
  });

  it("expects the dependents of a replaced object to follow its field rules", () => {
    // A membership's user replaces it; a staging config's image updates it in place.
    expect(expectedAfterReplacing(["alice", "chrome"])).toMatchObject({ "alice-engineering": "replace", "chrome-pool": "update", "eng-chrome": "replace", eng: "same" });
  });
});

describe.skipIf(!hasPulumi).each(["typescript", "yaml"] as const)("exact previews through the pulumi CLI (%s)", (form) => {
  let tmp: ReturnType<typeof tempDir>;
  let emulator: TestEmulator;
  const figures: string[] = [];

  beforeAll(async () => {
    tmp = tempDir(`exact-previews-${form}`);
    emulator = await startTestEmulator(SEED, { apiNames: "product" });
  });
  afterAll(async () => {
    console.log(`exact previews, ${form}:\n  ${figures.join("\n  ")}`);
    await emulator?.close();
    tmp?.remove();
  });

  it("a change that keeps every referenced id previews only those objects' updates, and up makes exactly them; replacing them previews their dependents' steps", { timeout: SLOW * 2 }, async () => {
    const { cli, write } = await cliStack(form, tmp.dir, emulator);
    const step = <R extends object>(label: string, run: () => Promise<R>) => measuredStep(emulator, figures, label, run);

    const created = await step("up (create)", () => cli.steps("up"));
    expect(created.errors).toEqual({});
    expect(created.code, created.stdout + created.stderr).toBe(0);

    write(true);
    const preview = await step("preview (every referenced object changed)", () => cli.steps("preview"));
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
    const updates = Object.fromEntries(NAMES.map((name) => [name, REFERENCED_NAMES.includes(name) ? "update" : "same"]));
    expect(ofProgram(preview.ops)).toEqual(updates);

    const up = await step("up (every referenced object changed)", () => cli.steps("up"));
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(ofProgram(up.ops)).toEqual(updates);
    // One update a changed object, and nothing sent for what depends on it.
    const writes = up.requests.filter((line) => !/get_|__healthcheck/.test(line));
    expect(writes, writes.join("\n")).toHaveLength(REFERENCED_NAMES.length);

    // A replacement changes the referenced ids: the dependents follow their own field rules.
    const urnOf = (name: string) => {
      const kind = REFERENCED[name as keyof typeof REFERENCED](false).kind;
      const type = form === "yaml" ? `kasm:index:${kind}` : `pulumi-nodejs:dynamic/kasm:${kind}`;
      return `urn:pulumi:dev::exact-previews::${type}::${name}`;
    };
    const replaced = ["alice", "bob", "eng", "chrome", "vpn"];
    const replacing = await step("preview --replace (users, group, workspace, egress provider)", () => cli.steps("preview", replaced.flatMap((name) => ["--replace", urnOf(name)])));
    expect(replacing.code, replacing.stdout + replacing.stderr).toBe(0);
    expect(ofProgram(replacing.ops)).toEqual(expectedAfterReplacing(replaced));
  });
});

describe("exact previews through the test engine (typescript), as through the CLI", () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(() => {
    tmp = tempDir("exact-previews-engine");
  });
  afterAll(() => tmp?.remove());

  it("a change that keeps every referenced id previews only those objects' updates, and up makes exactly them", { timeout: SLOW }, async () => {
    const emulator = await startTestEmulator(SEED, { apiNames: "product" });
    try {
      const programDir = path.join(tmp.dir, "program");
      mkdirSync(programDir, { recursive: true });
      writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: "exact-previews", main: "index.ts" }));
      const write = (changed: boolean) => writeFileSync(path.join(programDir, "index.ts"), typescriptProgram(program(changed)));
      write(false);
      const engine = new TestEngine({
        programDir,
        project: "exact-previews",
        stack: "dev",
        stateFile: path.join(tmp.dir, "state.json"),
        passphrase: PASSPHRASE,
        config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret, "kasm:maxRetries": "1", "kasm:apiNames": "product" },
        secretKeys: ["kasm:apiKeySecret"],
      });
      const opsOf = (result: Awaited<ReturnType<TestEngine["up"]>>) => ofProgram(Object.fromEntries(result.resources.map((r) => [r.urn.split("::").pop()!, r.op])));
      const created = await engine.up();
      expect(created.errors).toEqual([]);
      write(true);
      const updates = Object.fromEntries(NAMES.map((name) => [name, REFERENCED_NAMES.includes(name) ? "update" : "same"]));
      const preview = await engine.preview();
      expect(preview.errors).toEqual([]);
      expect(opsOf(preview)).toEqual(updates);
      const up = await engine.up();
      expect(up.errors).toEqual([]);
      expect(opsOf(up)).toEqual(updates);
    } finally {
      await emulator.close();
    }
  });
});
