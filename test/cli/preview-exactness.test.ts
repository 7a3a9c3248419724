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
import { hasPulumi, internalFieldShown, measuredStep, PulumiCli } from "./pulumi-cli";

const ZONE = "0d2f2c0a6c8e4f4e9a0b1c2d3e4f5a6b";
const SERVER = "5e5e5e5e5e5e4e5e9e5e5e5e5e5e0001";
const SEED = {
  zones: [{ zone_id: ZONE, zone_name: "default" }],
  servers: [{ server_id: SERVER, hostname: "build-box.example.org", zone_name: "default" }],
  users: [{ username: "ada@corp.example", first_name: "Ada" }],
};

/**
 * How the program declares the objects others refer to: as created; with a field of each changed
 * that keeps its id (`changed`); or with their natural keys changed too (`renamed`), for a
 * replacement (`--replace`): Kasm cannot hold a new user beside the old one under one username,
 * so a replacement that kept it would fail, its preview too.
 */
type Variant = "created" | "changed" | "renamed";

/** The objects others refer to, with the field each changes that keeps its id. */
const REFERENCED = {
  alice: (v: Variant): Declaration => ({
    name: "alice",
    kind: "User",
    properties: { username: v === "renamed" ? "alice.new" : "alice", firstName: v === "created" ? "Alice" : "Alicia" },
  }),
  bob: (v: Variant): Declaration => ({
    name: "bob",
    kind: "User",
    properties: { username: v === "renamed" ? "bob.new" : "bob", firstName: v === "created" ? "Bob" : "Robert" },
  }),
  eng: (v: Variant): Declaration => ({
    name: "eng",
    kind: "Group",
    properties: { name: groupName(v), priority: 50, description: v === "created" ? "Builds" : "Builds the product" },
  }),
  chrome: (v: Variant): Declaration => ({
    name: "chrome",
    kind: "Workspace",
    // A compute-related field too, whose change the native preview notes for the permissions pack in its planned outputs only.
    properties: {
      name: "kasmweb/chrome:1.16.0",
      friendlyName: "Chrome",
      cores: v === "created" ? 1 : 2,
      memory: 1_024_000_000,
      description: v === "created" ? "A browser" : "The browser",
    },
  }),
  vpn: (v: Variant): Declaration => ({
    name: "vpn",
    kind: "EgressProvider",
    properties: { name: v === "renamed" ? "Corporate VPN 2" : "Corporate VPN", egressProviderType: "wireguard", enabled: v === "created" },
  }),
  fra: (v: Variant): Declaration => ({
    name: "fra",
    kind: "EgressGateway",
    properties: { egressProviderId: ref("vpn"), name: "Frankfurt", country: "DE", city: v === "created" ? "Frankfurt" : "Frankfurt am Main" },
  }),
};

/** The group's name, which the user set's rows name too. */
const groupName = (v: Variant) => (v === "renamed" ? "Engineering 2" : "Engineering");

/** Every reference between kinds, each made at least once. */
const dependents = (v: Variant): Declaration[] => [
  { name: "alice-attributes", kind: "UserAttributes", properties: { userId: ref("alice"), showTips: true } },
  { name: "alice-engineering", kind: "GroupMembership", properties: { userId: ref("alice"), groupId: ref("eng") } },
  { name: "bob-groups", kind: "UserGroups", properties: { userId: ref("bob"), groupIds: [ref("eng")] } },
  { name: "alice-box", kind: "UserServerAssignment", properties: { userId: ref("alice"), serverId: SERVER } },
  {
    name: "team",
    kind: "UserSet",
    properties: { users: [{ username: "carol", firstName: "Carol", groups: [groupName(v)] }], groupIds: { [groupName(v)]: ref("eng") } },
  },
  { name: "chrome-pool", kind: "StagingConfig", properties: { zoneId: ZONE, imageId: ref("chrome"), numSessions: 1, expiration: 1 } },
  { name: "chrome-link", kind: "CastConfig", properties: { castingConfigName: "Lobby", key: "lobby", imageId: ref("chrome"), groupId: ref("eng") } },
  { name: "eng-chrome", kind: "GroupWorkspace", properties: { groupId: ref("eng"), imageId: ref("chrome") } },
  { name: "vpn-alice", kind: "EgressProviderMapping", properties: { egressProviderId: ref("vpn"), userId: ref("alice"), allowAllGateways: true } },
  { name: "vpn-eng", kind: "EgressProviderMapping", properties: { egressProviderId: ref("vpn"), groupId: ref("eng"), selectedGateways: [ref("fra")] } },
  { name: "vpn-chrome", kind: "EgressProviderMapping", properties: { egressProviderId: ref("vpn"), imageId: ref("chrome"), allowAllGateways: true } },
  {
    name: "alice-key",
    kind: "EgressCredential",
    properties: { egressProviderId: ref("vpn"), name: "alice", userId: ref("alice"), allowAllGateways: true, wireguardPrivateKey: "a-private-key" },
  },
  {
    name: "eng-key",
    kind: "EgressCredential",
    properties: { egressProviderId: ref("vpn"), name: "engineering", groupId: ref("eng"), selectedGateways: [ref("fra")], wireguardPrivateKey: "another-key" },
  },
  {
    name: "chrome-key",
    kind: "EgressCredential",
    properties: { egressProviderId: ref("vpn"), name: "chrome", imageId: ref("chrome"), allowAllGateways: true, wireguardPrivateKey: "a-third-key" },
  },
];

/** The program, its referenced objects declared as `variant` says. */
function program(variant: Variant): Declaration[] {
  return [...Object.values(REFERENCED).map((declare) => declare(variant)), ...dependents(variant)];
}

const REFERENCED_NAMES = Object.keys(REFERENCED);
const NAMES = program("created").map((d) => d.name);

/**
 * What a preview with the declarations `replaced` replaced shows for each declaration: a
 * replacement where a reference to a replaced object replaces (the kind's field rule says so),
 * which replaces what refers to it in turn; an update where a reference to one does not; the
 * same elsewhere. An update keeps the object's id, so nothing past it changes.
 */
function expectedAfterReplacing(replaced: readonly string[]): Record<string, string> {
  const ops: Record<string, string> = {};
  for (const declaration of program("created")) {
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

/** A stack of a program in one form (by default {@link program}), through the CLI, on an emulator speaking the product's names. */
async function cliStack(form: Form, dir: string, emulator: TestEmulator, declarations: (variant: Variant) => Declaration[] = program) {
  const programDir = path.join(dir, "program");
  mkdirSync(programDir, { recursive: true });
  const write = (variant: Variant) => {
    if (form === "yaml") writeFileSync(path.join(programDir, "Pulumi.yaml"), yamlProgram(declarations(variant), "exact-previews", emulator.url, "product"));
    else {
      writeFileSync(path.join(programDir, "Pulumi.yaml"), "name: exact-previews\nruntime: nodejs\n");
      writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: "exact-previews", main: "index.ts" }));
      writeFileSync(path.join(programDir, "index.ts"), typescriptProgram(declarations(variant)));
    }
  };
  write("created");
  const settings = {
    "kasm:baseUrl": emulator.url,
    "kasm:apiKey": ADMIN.key,
    "kasm:apiKeySecret": ADMIN.secret,
    "kasm:maxRetries": "1",
    "kasm:apiNames": "product",
  };
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
    expect(uncoveredReferences(program("created"))).toEqual([]);
  });

  it("expects the dependents of a replaced object to follow its field rules", () => {
    // A membership's user replaces it; a staging config's image updates it in place.
    expect(expectedAfterReplacing(["alice", "chrome"])).toMatchObject({
      "alice-engineering": "replace",
      "chrome-pool": "update",
      "eng-chrome": "replace",
      eng: "same",
    });
  });
});

describe("what a preview shows its reader", () => {
  it("the CLI suite refuses a display that shows an internal field (every preview, up, refresh and destroy it runs is held to this)", () => {
    expect(internalFieldShown("  ~ kasm:index:Workspace chrome update [diff: ~cores,resourceFieldsChanging]")).toBe("resourceFieldsChanging");
    expect(internalFieldShown("    ~ groupChanging: false => true")).toBe("groupChanging");
    expect(internalFieldShown('      - __provider: "exports.handler = ..."')).toBe("__provider");
    expect(internalFieldShown("  +- pulumi-nodejs:dynamic/kasm:GroupMembership m replace [diff: ~__resourceName]")).toBe("__resourceName");
    expect(internalFieldShown("  ~ kasm:index:Workspace chrome update [diff: ~cores]\n      ~ cores: 2 => 4")).toBeUndefined();
  });
});

describe.skipIf(!hasPulumi).each(["typescript", "yaml"] as const)("exact previews through the pulumi CLI (%s)", (form) => {
  let tmp: ReturnType<typeof tempDir>;
  let emulator: TestEmulator;
  const figures: string[] = [];
  /** Run one CLI step, recording the requests it sent and how long it took. */
  const step = <R extends object>(label: string, run: () => Promise<R>) => measuredStep(emulator, figures, label, run);

  beforeAll(async () => {
    tmp = tempDir(`exact-previews-${form}`);
    emulator = await startTestEmulator(SEED, { apiNames: "product" });
  });
  afterAll(async () => {
    console.log(`exact previews, ${form}:\n  ${figures.join("\n  ")}`);
    await emulator?.close();
    tmp?.remove();
  });

  it("a change that keeps every referenced id previews only those objects' updates, and up makes exactly them; replacing them previews their dependents' steps", {
    timeout: SLOW * 2,
  }, async () => {
    const { cli, write } = await cliStack(form, tmp.dir, emulator);

    const created = await step("up (create)", () => cli.steps("up"));
    expect(created.errors).toEqual({});
    expect(created.code, created.stdout + created.stderr).toBe(0);

    write("changed");
    const preview = await step("preview (every referenced object changed)", () => cli.steps("preview"));
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
    const updates = Object.fromEntries(NAMES.map((name) => [name, REFERENCED_NAMES.includes(name) ? "update" : "same"]));
    expect(ofProgram(preview.ops)).toEqual(updates);
    // What a reviewer reads: no note for the policy packs, no internal property, in any diff.
    const diff = await step("preview --diff", () => cli.preview(["--diff"]));
    expect(diff.code, diff.stdout + diff.stderr).toBe(0);
    expect(diff.stdout).not.toMatch(/resourceFieldsChanging|groupChanging|__[a-zA-Z]/);

    const up = await step("up (every referenced object changed)", () => cli.steps("up"));
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(ofProgram(up.ops)).toEqual(updates);
    // One update a changed object, and nothing sent for what depends on it.
    const writes = up.requests.filter((line) => !/get_|__healthcheck/.test(line));
    expect(writes, writes.join("\n")).toHaveLength(REFERENCED_NAMES.length);

    // A replacement changes the referenced ids: the dependents follow their own field rules.
    const urnOf = (name: string) => {
      const kind = REFERENCED[name as keyof typeof REFERENCED]("created").kind;
      const type = form === "yaml" ? `kasm:index:${kind}` : `pulumi-nodejs:dynamic/kasm:${kind}`;
      return `urn:pulumi:dev::exact-previews::${type}::${name}`;
    };
    const replaced = ["alice", "bob", "eng", "chrome", "vpn"];
    write("renamed");
    const replacing = await step("preview --replace (users, group, workspace, egress provider)", () =>
      cli.steps(
        "preview",
        replaced.flatMap((name) => ["--replace", urnOf(name)]),
      ),
    );
    expect(replacing.code, replacing.stdout + replacing.stderr).toBe(0);
    expect(ofProgram(replacing.ops)).toEqual(expectedAfterReplacing(replaced));
  });

  it("a new user whose username Kasm has already (in another case) fails the preview, naming it, its installation and adopt, and up creates nothing", {
    timeout: SLOW,
  }, async () => {
    const newcomer = (): Declaration[] => [
      { name: "other", kind: "User", properties: { username: "grace@corp.example" } },
      { name: "ada", kind: "User", properties: { username: "ADA@corp.example", firstName: "Ada" } },
    ];
    const { cli } = await cliStack(form, path.join(tmp.dir, "existing"), emulator, newcomer);
    const usernames = async () => ((await emulator.specCall("get_users")).body.users as { username: string }[]).map((u) => u.username).sort();
    const before = await usernames();
    const preview = await step("preview (a user Kasm has)", () => cli.preview());
    expect(preview.code).not.toBe(0);
    const printed = preview.stdout + preview.stderr;
    // Kasm keeps usernames in lower case: the message names the user as Kasm has it.
    expect(printed).toContain(`User ada: User 'ada@corp.example' already exists in Kasm at ${emulator.url}`);
    expect(printed).toContain("Set `adopt: true` on the resource to take it over");
    // `pulumi up` previews first, and stops there: nothing is applied. (With --skip-preview the
    // resources register in parallel, and another one may be created before this check fails.)
    const up = await step("up (a user Kasm has)", () => cli.run(["up", "--yes", "--stack", "dev"]));
    expect(up.code).not.toBe(0);
    expect(up.stdout + up.stderr).toContain("User 'ada@corp.example' already exists in Kasm");
    expect(await usernames()).toEqual(before);
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
      const write = (variant: Variant) => writeFileSync(path.join(programDir, "index.ts"), typescriptProgram(program(variant)));
      write("created");
      const engine = new TestEngine({
        programDir,
        project: "exact-previews",
        stack: "dev",
        stateFile: path.join(tmp.dir, "state.json"),
        passphrase: PASSPHRASE,
        config: {
          "kasm:baseUrl": emulator.url,
          "kasm:apiKey": ADMIN.key,
          "kasm:apiKeySecret": ADMIN.secret,
          "kasm:maxRetries": "1",
          "kasm:apiNames": "product",
        },
        secretKeys: ["kasm:apiKeySecret"],
      });
      const opsOf = (result: Awaited<ReturnType<TestEngine["up"]>>) =>
        ofProgram(Object.fromEntries(result.resources.map((r) => [r.urn.split("::").pop()!, r.op])));
      const created = await engine.up();
      expect(created.errors).toEqual([]);
      write("changed");
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
