/**
 * `kasm-import` against an installation that holds workspaces without a container image (a link, a
 * server pool), which Kasm lists with `name: null`: it reads them, leaves them out of the Workspaces
 * with a plain reason, declares the group authorisation of one by id with its friendly name, and the
 * generated program's first up through the test engine takes everything over without a write.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { SLOW, expectOk, tempDir } from "../e2e/helpers";
import { engineOn, kasmImport, writesIn } from "./helpers";

const CHROME = "3c000000000000000000000000000001";
const LINK = "3c000000000000000000000000000002";
const POOLED = "3c000000000000000000000000000003";

const SEED = {
  groups: [{ name: "Engineering" }],
  serverPools: [{ server_pool_name: "Lab" }],
  images: [
    { image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome", groups: ["Engineering"] },
    { image_id: LINK, friendly_name: "Intranet", image_type: "Link", link_url: "https://intranet.example.org", groups: ["Engineering"] },
    { image_id: POOLED, friendly_name: "Lab desktops", image_type: "Server Pool", server_pool_name: "Lab" },
  ],
};

let tmp: ReturnType<typeof tempDir>;
let emulator: TestEmulator;
beforeAll(async () => {
  tmp = tempDir("import-nameless");
  emulator = await startTestEmulator(SEED, { apiNames: "product" });
});
afterAll(async () => {
  await emulator?.close();
  tmp?.remove();
});

describe("kasm-import: workspaces without a container image", () => {
  const dir = () => path.join(tmp.dir, "program");

  it("reads them, leaves them out of the Workspaces with the reason, and declares a group's authorisation of one by id", async () => {
    const { status, stdout, stderr } = await kasmImport(emulator, tmp.dir, ["--out", dir(), "--only", "groups,workspaces,workspace-groups", "--no-protect"]);
    expect(stderr).not.toContain("kasm-import:");
    expect(status).toBe(0);
    expect(stdout).toMatch(
      /^Workspaces\s+3\s+1\s+2: without a container image \(a link, a server or a server pool workspace, which Kasm stores without a name\), which a Workspace cannot declare$/m,
    );
    expect(stdout).toMatch(/^Workspace groups\s+2\s+2\s+-$/m);
    const program = readFileSync(path.join(dir(), "index.ts"), "utf8");
    expect(program).toContain('const chrome = new kasm.Workspace("chrome", {');
    expect(program).not.toContain('new kasm.Workspace("intranet"');
    expect(program).toContain(
      `new kasm.GroupWorkspace("engineering-intranet", {\n  groupId: engineering.groupId,\n  imageId: "${LINK}" /* Intranet */,\n  adopt: true,\n}, imported);`,
    );
    expect(readFileSync(path.join(dir(), "README.md"), "utf8")).toContain(
      "- Workspaces: 2: without a container image (a link, a server or a server pool workspace",
    );
  });

  it("the generated program's first up takes everything over without a write", { timeout: SLOW }, async () => {
    const engine = engineOn(emulator, { programDir: dir(), project: "nameless", stateFile: path.join(tmp.dir, "nameless-state.json") });
    emulator.requests.length = 0;
    const up = await engine.up();
    expectOk(up);
    const created = (kind: string) =>
      up.resources
        .filter((r) => r.op === "create" && r.type.endsWith(`:${kind}`))
        .map((r) => r.urn.split("::").pop())
        .sort();
    expect(created("Workspace")).toEqual(["chrome"]);
    expect(created("GroupWorkspace")).toEqual(["engineering-chrome", "engineering-intranet"]);
    expect(writesIn(emulator.requests, "product"), emulator.requests.join("\n")).toEqual([]);
  });
});
