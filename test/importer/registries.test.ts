/**
 * `kasm-import` taking workspace registries over, run in-process (`runImport`) against an emulator
 * speaking the released product's names: every registry Kasm lists (its own too) becomes a
 * WorkspaceRegistry with the URL Kasm keeps, its channel when it has one and its automatic updates,
 * taken over by URL (`adopt: true`). The generated program's first up through the test engine
 * sends no write, and a preview and a refresh right after show no change. Against the documented
 * API the area is skipped with the reason, and nothing is read for it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { SLOW, expectOk, tempDir } from "../e2e/helpers";
import { engineOn, expectNoChangeAfterTakeOver, kasmImport, writesIn } from "./helpers";

/** Kasm's own registry, and one added with a channel that updates itself (as Kasm fetched them: no site is served). */
const SEED = {
  registries: [
    { config: { name: "Kasm Technologies", icon: "", description: "", list_url: "https://registry.kasmweb.com/", workspaces: [] } },
    {
      config: {
        name: "In-house Tools",
        icon: "icon.png",
        description: "Our workspaces",
        list_url: "https://tools.example.org/registry/",
        workspaces: [{ name: "acme/editor:1.0.0", friendly_name: "Acme Editor" }],
      },
      channel: "stable",
      do_auto_update: true,
    },
  ],
};

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => {
  tmp = tempDir("import-registries");
});
afterAll(() => tmp?.remove());

describe("kasm-import: workspace registries, product vocabulary", () => {
  let emulator: TestEmulator;
  const dir = () => path.join(tmp.dir, "product");

  beforeAll(async () => {
    emulator = await startTestEmulator(SEED, { apiNames: "product" });
  });
  afterAll(async () => emulator?.close());

  it("writes a WorkspaceRegistry per registry, Kasm's own too, with its URL, channel and automatic updates", async () => {
    const result = await kasmImport(emulator, tmp.dir, ["--out", dir(), "--only", "workspace-registries", "--no-protect"]);
    expect(result.stderr).not.toContain("kasm-import:");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Workspace registries\s+2\s+2\s+-$/m);
    const program = readFileSync(path.join(dir(), "index.ts"), "utf8");
    expect(program).toContain(
      'new kasm.WorkspaceRegistry("in-house-tools", {\n  url: "https://tools.example.org/registry/",\n  channel: "stable",\n  autoUpdate: true,\n  adopt: true,\n}, imported);',
    );
    expect(program).toContain(
      'new kasm.WorkspaceRegistry("kasm-technologies", {\n  url: "https://registry.kasmweb.com/",\n  autoUpdate: false,\n  adopt: true,\n}, imported);',
    );
  });

  it("the generated program's first up sends no write to Kasm; a preview and a refresh right after show no change", { timeout: SLOW }, async () => {
    const engine = engineOn(emulator, { programDir: dir(), project: "registries", stateFile: path.join(tmp.dir, "registries-state.json") });
    emulator.requests.length = 0;
    const up = await engine.up();
    expectOk(up);
    expect(
      up.resources
        .filter((r) => r.op === "create" && r.type.endsWith(":WorkspaceRegistry"))
        .map((r) => r.urn.split("::").pop())
        .sort(),
    ).toEqual(["in-house-tools", "kasm-technologies"]);
    expect(writesIn(emulator.requests, "product"), emulator.requests.join("\n")).toEqual([]);
    await expectNoChangeAfterTakeOver(engine);
  });
});

describe("kasm-import: workspace registries, documented API", () => {
  it("the area is skipped with the reason, and nothing is read for it", async () => {
    const emulator = await startTestEmulator(SEED, { apiNames: "spec" });
    try {
      const result = await kasmImport(emulator, tmp.dir, ["--dry-run", "--only", "workspace-registries"]);
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(
        /^Workspace registries\s+not read\s+0\s+the documented API has no registry operations, so a WorkspaceRegistry needs a released Kasm \(set kasm:apiNames=product to take them over\)$/m,
      );
      expect(result.stdout).toContain("0 requests");
    } finally {
      await emulator.close();
    }
  });
});
