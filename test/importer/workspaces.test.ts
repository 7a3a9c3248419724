/**
 * `kasm-import` taking workspaces and their group authorisations over, run in-process
 * (`runImport`) against an emulator speaking the released product's names: the images it holds
 * (every one, those a fresh Kasm ships with too) become Workspace resources with the values Kasm
 * shows, the registry credentials secret inputs, two images of the same names are left out with the
 * reason, and each group's workspaces become GroupWorkspace resources referring to the declared
 * Group and Workspace (by id with the name for Kasm's own groups). The generated program's first up
 * through the test engine sends no write, and a preview and a refresh right after show no change. Against the
 * documented API, both areas are skipped with the reason.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestEngine } from "../../testing/engine";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PASSPHRASE, SLOW, expectOk, tempDir } from "../e2e/helpers";
import { expectNoChangeAfterTakeOver, kasmImport, writesIn } from "./helpers";

const hex = (prefix: string, n: number) => `${prefix}${String(n).padStart(32 - prefix.length, "0")}`;
const REGISTRY_USER = "registry-puller-7f3a";
const REGISTRY_TOKEN = "registry-token-not-real-91c2";

/** Two teams, three images (one from a private registry, restricted to a zone) and who may launch them. */
const SEED = {
  groups: [
    { group_id: hex("9a", 1), name: "Engineering" },
    { group_id: hex("9a", 2), name: "Support" },
  ],
  zones: [{ zone_id: hex("2b", 1), zone_name: "eu-west" }],
  images: [
    {
      image_id: hex("3c", 1),
      name: "kasmweb/chrome:1.16.0",
      friendly_name: "Chrome",
      description: "The browser",
      categories: ["Browsers", "Web"],
      run_config: { hostname: "kasm", environment: { TZ: "UTC" }, labels: null },
      exec_config: { first_launch: { cmd: "google-chrome" } },
      groups: ["Engineering", "All Users"],
    },
    {
      image_id: hex("3c", 2),
      name: "registry.example.org/tools/ledger:2.1",
      friendly_name: "Ledger",
      memory: 4000000000,
      cores: 1.5,
      zone_name: "eu-west",
      ctr_registry: "https://registry.example.org",
      ctr_user: REGISTRY_USER,
      ctr_token: REGISTRY_TOKEN,
      volume_mappings: { "/mnt/shared": { bind: "/home/kasm-user/shared", mode: "rw", uid: 1000, gid: 1000, required: true } },
      groups: ["Support"],
    },
    { image_id: hex("3c", 3), name: "kasmweb/desktop:1.16.0", friendly_name: "Ubuntu Desktop" },
  ],
};

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => {
  tmp = tempDir("import-workspaces");
});
afterAll(() => tmp?.remove());

const file = (dir: string, name: string) => readFileSync(path.join(dir, name), "utf8");

describe("kasm-import: workspaces and the groups that may launch them, product vocabulary", () => {
  let emulator: TestEmulator;
  let dir: string;
  let allUsers: string;

  beforeAll(async () => {
    emulator = await startTestEmulator(SEED, { apiNames: "product" });
    const groups = (await emulator.specCall("get_groups", {})).body.groups as { group_id: string; name: string }[];
    allUsers = groups.find((g) => g.name === "All Users")!.group_id.replace(/-/g, "");
    // A second image of the same names as Ubuntu Desktop (Kasm allows it): neither can be taken over by its names.
    const copy = await emulator.specCall("create_image", { target_image: { name: "kasmweb/desktop:1.16.0", friendly_name: "Ubuntu Desktop" } });
    expect(copy.body.error_message).toBeUndefined();
    // A staging config of Chrome: it refers to the declared workspace.
    const staging = await emulator.specCall("create_staging_config", {
      target_staging_config: { zone_id: hex("2b", 1), image_id: hex("3c", 1), num_sessions: 1, expiration: 1 },
    });
    expect(staging.body.error_message).toBeUndefined();
    emulator.requests.length = 0;
  }, 60_000);
  afterAll(async () => emulator?.close());

  it("writes a Workspace per image with the values Kasm shows, the registry credentials as secret inputs", async () => {
    dir = path.join(tmp.dir, "product");
    const result = await kasmImport(emulator, tmp.dir, ["--out", dir, "--only", "groups,workspaces,workspace-groups,staging-configs", "--no-protect"]);
    expect(result.stderr).not.toContain("kasm-import:");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /^Workspaces\s+4\s+2\s+2: with the container name and friendly name of another image, which a take-over could not tell apart$/m,
    );
    expect(result.stdout).toMatch(/^Workspace groups\s+3\s+3\s+-$/m);
    // The groups, the images, one read of each group's workspaces, the staging configs, the licenses.
    expect(result.stdout).toContain(`${1 + 1 + 4 + 1 + 1} requests`);
    expect(result.stderr).toContain("read workspaces: 4\nread workspace-groups: 4\n");

    const program = file(dir, "index.ts");
    expect(program).toContain(
      [
        'const chrome = new kasm.Workspace("chrome", {',
        '  name: "kasmweb/chrome:1.16.0",',
        '  friendlyName: "Chrome",',
        '  description: "The browser",',
        '  categories: ["Browsers", "Web"],',
        '  imageSrc: "img/thumbnails/kasmweb_chrome_1_16_0.png",',
        "  enabled: true,",
        "  cores: 2,",
        "  memory: 2768000000,",
        "  gpuCount: 0,",
        "  requireGpu: false,",
        '  cpuAllocationMethod: "Inherit",',
        "  uncompressedSizeMb: 0,",
        '  imageType: "Container",',
        '  runConfig: { hostname: "kasm", environment: { TZ: "UTC" }, labels: null },',
        '  execConfig: { first_launch: { cmd: "google-chrome" } },',
        "  volumeMappings: {},",
        "  restrictToZone: false,",
        "  restrictToServer: false,",
        "  restrictToNetwork: false,",
        "  restrictNetworkNames: [],",
        "  adopt: true,",
        "}, imported);",
      ].join("\n"),
    );
    expect(program).toContain(`  zoneId: "${hex("2b", 1)}" /* eu-west */,`);
    expect(program).toContain('  registry: "https://registry.example.org",');
    expect(program).toContain('  registryUsername: config.requireSecret("ledgerRegistryUsername"),');
    expect(program).toContain('  registryPassword: config.requireSecret("ledgerRegistryPassword"),');
    expect(program).not.toContain('"Ubuntu Desktop"');
    // Links: declared groups and workspaces by reference, Kasm's own group by id with its name.
    expect(program).toContain(
      'new kasm.GroupWorkspace("all-users-chrome", {\n' +
        `  groupId: "${allUsers}" /* All Users */,\n  imageId: chrome.imageId,\n  adopt: true,\n}, imported);`,
    );
    expect(program).toContain('new kasm.GroupWorkspace("engineering-chrome", {\n  groupId: engineering.groupId,\n  imageId: chrome.imageId,\n');
    expect(program).toContain('new kasm.GroupWorkspace("support-ledger", {\n  groupId: support.groupId,\n  imageId: ledger.imageId,\n');
    expect(program).toMatch(/new kasm\.StagingConfig\("eu-west-chrome", \{\n {2}zoneId: "[0-9a-f]{32}" \/\* eu-west \*\/,\n {2}imageId: chrome\.imageId,/);

    const readme = file(dir, "README.md");
    expect(readme).toContain('pulumi config set --secret ledgerRegistryUsername   # the registry user of workspace "Ledger"');
    expect(readme).toContain("pulumi config set --secret ledgerRegistryPassword   # the registry password of workspace");
    expect(readme).toContain("- Workspaces: 2: with the container name and friendly name of another image");
    for (const name of readdirSync(dir))
      for (const secret of [REGISTRY_USER, REGISTRY_TOKEN, ADMIN.secret]) expect(file(dir, name), name).not.toContain(secret);
    expect(writesIn(emulator.requests, "product")).toEqual([]);
  });

  it("the generated program's first up sends no write to Kasm; a preview and a refresh right after show no change", { timeout: SLOW }, async () => {
    const project = "workspaces";
    const secrets = { [`${project}:ledgerRegistryUsername`]: REGISTRY_USER, [`${project}:ledgerRegistryPassword`]: REGISTRY_TOKEN };
    const engine = new TestEngine({
      programDir: dir,
      project,
      stack: "dev",
      stateFile: path.join(tmp.dir, "workspaces-state.json"),
      passphrase: PASSPHRASE,
      config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret, "kasm:apiNames": "product", ...secrets },
      secretKeys: ["kasm:apiKeySecret", ...Object.keys(secrets)],
    });
    emulator.requests.length = 0;
    const up = await engine.up();
    expectOk(up);
    const created = (kind: string) =>
      up.resources
        .filter((r) => r.op === "create" && r.type.endsWith(`:${kind}`))
        .map((r) => r.urn.split("::").pop())
        .sort();
    expect(created("Workspace")).toEqual(["chrome", "ledger"]);
    expect(created("GroupWorkspace")).toEqual(["all-users-chrome", "engineering-chrome", "support-ledger"]);
    expect(created("StagingConfig")).toEqual(["eu-west-chrome"]);
    expect(writesIn(emulator.requests, "product"), emulator.requests.join("\n")).toEqual([]);
    // The run's outputs are unwrapped for the test; the state keeps the credentials encrypted, and no log shows them.
    const state = readFileSync(path.join(tmp.dir, "workspaces-state.json"), "utf8");
    for (const secret of [REGISTRY_USER, REGISTRY_TOKEN]) expect(state + JSON.stringify(up.logs) + up.programOutput).not.toContain(secret);

    await expectNoChangeAfterTakeOver(engine);
  });
});

describe("kasm-import: workspaces, documented API", () => {
  it("both areas are skipped with the reason, and nothing is read for them", async () => {
    const emulator = await startTestEmulator(SEED, { apiNames: "spec" });
    try {
      const result = await kasmImport(emulator, tmp.dir, ["--dry-run", "--only", "workspaces,workspace-groups"]);
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(
        /^Workspaces\s+not read\s+0\s+the documented API lists images but cannot create or change one, so a Workspace needs a released Kasm \(set kasm:apiNames=product to take them over\)$/m,
      );
      expect(result.stdout).toMatch(/^Workspace groups\s+not read\s+0\s+the documented API cannot read which groups may launch a workspace/m);
      // Only the licenses' line is the documented API's own: no request at all.
      expect(result.stdout).toContain("0 requests");
    } finally {
      await emulator.close();
    }
  });
});
