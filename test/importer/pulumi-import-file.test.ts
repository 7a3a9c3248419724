/**
 * `kasm-import --pulumi-import-file`: the resource list that `pulumi import --file` takes, for an
 * installation built by hand (product names: every area). Each object in it is read the way
 * `pulumi import` reads it, through the native provider's Read with nothing but its type and id;
 * what that read gives back passes Check and diffs as no change, which is what lets the program
 * Pulumi generates from it preview without change. test/cli/native-take-over.test.ts runs the
 * file through the CLI.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runImport } from "../../importer/cli";
import { IMPORT_KINDS } from "../../importer/kinds";
import { ADMIN } from "../helpers/emulator";
import { buildInstallation, type Installation } from "../helpers/installation";
import { startNativeProvider, struct, type NativeProviderClient } from "../helpers/native-provider";

const PROVIDER_URN = "urn:pulumi:dev::kasm-stack::pulumi:providers:kasm::prod";

interface ImportFile {
  readonly nameTable?: Record<string, string>;
  readonly resources: { readonly type: string; readonly name: string; readonly id: string; readonly provider?: string }[];
}

/** Run kasm-import in process against the installation; resolves with its status and output. */
async function kasmImport(installation: Installation, args: readonly string[], cwd: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on("data", (chunk) => out.push(String(chunk)));
  stderr.on("data", (chunk) => err.push(String(chunk)));
  const env = {
    KASM_BASE_URL: installation.emulator.url,
    KASM_API_KEY: ADMIN.key,
    KASM_API_KEY_SECRET: ADMIN.secret,
    KASM_API_NAMES: "product",
    KASM_MAX_RETRIES: "0",
  };
  const status = await runImport(args, { stdout, stderr, env, cwd });
  return { status, stdout: out.join(""), stderr: err.join("") };
}

describe("kasm-import --pulumi-import-file", () => {
  let installation: Installation;
  let dir: string;
  let provider: NativeProviderClient;
  const call = <Req, Res>(method: string, request: Req) => provider.call<Req, Res>(method, request);

  beforeAll(async () => {
    installation = await buildInstallation(12, { apiNames: "product", observedFields: true });
    dir = mkdtempSync(path.join(tmpdir(), "pulumi-import-file-"));
    provider = await startNativeProvider();
    await call(
      "configure",
      new provproto.ConfigureRequest().setArgs(
        struct({ baseUrl: installation.emulator.url, apiKey: ADMIN.key, apiKeySecret: ADMIN.secret, apiNames: "product", maxRetries: 0 }),
      ),
    );
  }, 60_000);
  afterAll(async () => {
    await provider?.close();
    await installation?.emulator.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists every object the program would declare, by native type and id, on the provider given; each reads back by its id alone as no change", {
    timeout: 120_000,
  }, async () => {
    const file = path.join(dir, "resources.json");
    const written = await kasmImport(installation, ["--pulumi-import-file", file, "--pulumi-import-provider", PROVIDER_URN], dir);
    expect(written.status, written.stderr).toBe(0);
    expect(written.stdout).toContain("pulumi import --file resources.json");
    const list = JSON.parse(readFileSync(file, "utf8")) as ImportFile;
    expect(list.nameTable).toEqual({ prod: PROVIDER_URN });

    // Every kind the importer declares for these areas is in the list (users one by one: no UserSet).
    const types = new Set(list.resources.map((r) => r.type));
    const expected = IMPORT_KINDS.flatMap((area) => area.kinds).filter((kind) => kind !== "UserSet");
    expect([...types].sort()).toEqual(expected.map((kind) => `kasm:index:${kind}`).sort());
    expect(
      list.resources
        .filter((r) => r.type === "kasm:index:User")
        .map((r) => r.name)
        .sort(),
    ).toEqual([...installation.usernames].sort());
    expect(new Set(list.resources.map((r) => r.name)).size).toBe(list.resources.length);
    expect(list.resources.every((r) => r.provider === "prod")).toBe(true);
    // No secret the installation holds.
    const text = readFileSync(file, "utf8");
    for (const value of [...Object.values(installation.secrets.passwords), ...Object.values(installation.secrets.wireguardKeys)])
      expect(text).not.toContain(value);

    const problems: string[] = [];
    for (const { type, name, id } of list.resources) {
      const urn = `urn:pulumi:dev::kasm-stack::${type}::${name}`;
      const read = await call<provproto.ReadRequest, provproto.ReadResponse>("read", new provproto.ReadRequest().setUrn(urn).setId(id));
      if (read.getId() === "") {
        problems.push(`${type} ${name} (${id}): not found by its id`);
        continue;
      }
      const inputs = read.getInputs() ?? struct({});
      const checked = await call<provproto.CheckRequest, provproto.CheckResponse>(
        "check",
        new provproto.CheckRequest().setUrn(urn).setOlds(inputs).setNews(inputs),
      );
      const failures = checked.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
      if (failures.length > 0) problems.push(`${type} ${name}: check failed: ${failures.join("; ")}`);
      const diff = await call<provproto.DiffRequest, provproto.DiffResponse>(
        "diff",
        new provproto.DiffRequest().setUrn(urn).setId(read.getId()).setOlds(read.getProperties()).setNews(checked.getInputs()),
      );
      if (diff.getChanges() !== provproto.DiffResponse.DiffChanges.DIFF_NONE)
        problems.push(`${type} ${name}: diff ${[...diff.getDetaileddiffMap().keys()].join(", ") || diff.getChanges()}`);
    }
    expect(problems).toEqual([]);
  });

  it("refuses --users set and a provider that is not a kasm provider's URN, naming the option", async () => {
    const file = path.join(dir, "refused.json");
    const set = await kasmImport(installation, ["--pulumi-import-file", file, "--users", "set"], dir);
    expect(set.status).toBe(2);
    expect(set.stderr).toContain("--users set cannot go with --pulumi-import-file");
    const provider = await kasmImport(installation, ["--pulumi-import-file", file, "--pulumi-import-provider", "prod"], dir);
    expect(provider.status).toBe(2);
    expect(provider.stderr).toContain("--pulumi-import-provider 'prod': give the URN of a kasm provider resource");
    const alone = await kasmImport(installation, ["--pulumi-import-provider", PROVIDER_URN], dir);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain("--pulumi-import-provider goes with --pulumi-import-file");
  });
});
