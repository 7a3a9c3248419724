/**
 * One declaration per field (provider/resources/framework/fields.ts): in a scratch copy of the sources,
 * one input is added to one kind in one place, its field declaration in the kind's file, and
 * nothing else is edited. The input then reaches everything that derives from the kind:
 *
 * - the TypeScript SDK's class, with its doc (`scripts/sdk/typescript.ts`, as `npm run build` runs it);
 * - the native provider's package schema (`provider/native/schema.ts`);
 * - the README's Resources table (`scripts/docs/resources-table.ts`, as `npm run docs` runs it);
 * - the body of a create and of an update, as the emulator receives it over HTTP, in both
 *   vocabularies (`kasm:apiNames` `spec` and `product`);
 * - the provider's diff, which reports a change to it as a changed field.
 *
 * The copy holds the sources without `node_modules` (linked) or `dist`; the scripts and a driver
 * outside the copy run in child processes with tsx, as `npm run docs` does. Afterwards the copy
 * differs from the sources only in the kind's file and in what the generators write.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
/** What is not copied: installed packages (linked instead), builds and the repository's history. */
const NOT_COPIED = new Set(["node_modules", "dist", ".git", "build", "coverage", ".kasm-state"]);

/** The kind that gets the new input, its file, and the input: one entry of its field declarations. */
const KIND_FILE = "provider/resources/staging-config.ts";
const ANCHOR = "  ...SESSION_PERMISSION_FIELDS,\n";
const DOC = "A label Kasm shows beside the staged sessions (added by the test in one place).";
const DECLARATION = `  sessionLabel: { type: z.string().optional(), role: "sent", doc: ${JSON.stringify(DOC)} },\n`;

/** What the driver reports, run in the copy against an emulator speaking one vocabulary. */
interface DriverReport {
  readonly schemaProperty: { readonly type?: string; readonly description?: string } | undefined;
  readonly apiNames: string;
  readonly createBody: Record<string, unknown> | undefined;
  readonly updateBody: Record<string, unknown> | undefined;
  readonly changedFields: readonly string[];
  readonly replaces: readonly string[];
}

/**
 * The driver, outside the copy: the package schema of the copy's kinds, then a StagingConfig with
 * the new input created and updated through the copy's provider against an emulator, behind a
 * proxy that keeps each request body the emulator receives.
 */
function driverSource(scratch: string): string {
  const from = (file: string) => JSON.stringify(path.join(scratch, file));
  return `
import http from "node:http";
import { kinds } from ${from("provider/index.ts")};
import { packageSchema } from ${from("provider/native/schema.ts")};
import { ConnectionRegistry, contextIn } from ${from("provider/runtime.ts")};
import { startEmulator } from ${from("emulator/server.ts")};
import { seedWithAdmin, ADMIN } from ${from("test/helpers/emulator.ts")};

const ZONE = "0a000000000000000000000000000001";
const CHROME = "1b000000000000000000000000000001";
const apiNames = process.argv[2] as "spec" | "product";

async function main(): Promise<void> {
const schema = JSON.parse(packageSchema("0.0.0", kinds));
const emulator = await startEmulator({
  port: 0,
  apiNames,
  seed: seedWithAdmin({
    zones: [{ zone_id: ZONE, zone_name: "default" }],
    images: [{ image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
  }),
});
// Each request body as the emulator receives it, by the path's last part (the operation in the emulator's names).
const bodies: { operation: string; body: Record<string, unknown> }[] = [];
const proxy = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const body = Buffer.concat(chunks);
    if (body.length > 0) bodies.push({ operation: String(req.url).split("?")[0].split("/").pop() ?? "", body: JSON.parse(body.toString("utf8")) });
    const forwarded = http.request(emulator.url + req.url, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.end(body);
  });
});
await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
const address = proxy.address() as { port: number };
const settings: Record<string, string> = {
  "kasm:baseUrl": "http://127.0.0.1:" + address.port,
  "kasm:apiKey": ADMIN.key,
  "kasm:apiKeySecret": ADMIN.secret,
  "kasm:apiNames": apiNames,
  "kasm:checkBeforeChanges": "false",
  "kasm:maxRetries": "0",
};
const registry = new ConnectionRegistry((key) => settings[key], {});
const context = contextIn(registry, undefined, "chrome", { warn: async () => undefined, note: async () => undefined });
const kind = kinds.StagingConfig;
const declared = { zoneId: ZONE, imageId: CHROME, numSessions: 2, expiration: 1, sessionLabel: "first" };
const checked = await kind.check({}, declared, context);
if (checked.failures?.length) throw new Error(JSON.stringify(checked.failures));
const created = await kind.create(checked.inputs as never, context);
const createBody = bodies.find((b) => b.operation === "create_staging_config")?.body;
const changed = { ...declared, sessionLabel: "second" };
const diff = await kind.diff(created.id, created.outs as never, changed as never, context);
await kind.update(created.id, created.outs as never, changed as never, context);
const updateBody = bodies.find((b) => b.operation === "update_staging_config")?.body;
await registry.client(undefined).close();
proxy.close();
await emulator.close();
process.stdout.write(
  JSON.stringify({
    schemaProperty: schema.resources["kasm:index:StagingConfig"].inputProperties.sessionLabel,
    apiNames,
    createBody,
    updateBody,
    changedFields: diff.changedFields ?? [],
    replaces: diff.replaces ?? [],
  }),
);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;
}

/** The files under `folder` (relative to it), without what is not copied. */
function filesUnder(folder: string, under = ""): string[] {
  return readdirSync(path.join(folder, under), { withFileTypes: true }).flatMap((entry) => {
    if (NOT_COPIED.has(entry.name)) return [];
    const relative = path.join(under, entry.name);
    return entry.isDirectory() ? filesUnder(folder, relative) : [relative];
  });
}

/** Run a TypeScript file with tsx in the copy, as the package's scripts run; its standard output. */
function tsx(scratch: string, file: string, args: readonly string[] = []): string {
  return execFileSync(process.execPath, ["--import", "tsx", file, ...args], { cwd: scratch, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

describe("an input declared in one place", () => {
  let work: string;
  let scratch: string;
  let reports: Record<string, DriverReport>;

  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), "kind-fields-"));
    scratch = path.join(work, "scratch");
    cpSync(ROOT, scratch, { recursive: true, filter: (source) => !NOT_COPIED.has(path.basename(source)) || source === ROOT });
    symlinkSync(path.join(ROOT, "node_modules"), path.join(scratch, "node_modules"), "dir");
    // The one edit: a new entry in the kind's field declarations.
    const kindFile = path.join(scratch, KIND_FILE);
    const source = readFileSync(kindFile, "utf8");
    expect(source.split(ANCHOR)).toHaveLength(2);
    writeFileSync(kindFile, source.replace(ANCHOR, DECLARATION + ANCHOR));
    // What `npm run build` and `npm run docs` run, in the copy.
    tsx(scratch, "scripts/sdk/typescript.ts");
    tsx(scratch, "scripts/docs/resources-table.ts");
    const driver = path.join(work, "driver.ts");
    writeFileSync(driver, driverSource(scratch));
    reports = Object.fromEntries(["spec", "product"].map((apiNames) => [apiNames, JSON.parse(tsx(scratch, driver, [apiNames])) as DriverReport]));
  }, 240_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("is in the TypeScript SDK's class, with its doc", () => {
    const sdk = readFileSync(path.join(scratch, "sdk/kinds/staging-config.ts"), "utf8");
    expect(sdk).toContain(`/** ${DOC} */\n  readonly sessionLabel?: pulumi.Input<string>;`);
  });

  it("is in the package schema, with its doc", () => {
    expect(reports.spec.schemaProperty).toEqual({ type: "string", description: DOC });
  });

  it("is in the README's Resources table", () => {
    const row = readFileSync(path.join(scratch, "README.md"), "utf8")
      .split("\n")
      .find((line) => line.startsWith("| `StagingConfig`"));
    expect(row).toContain("**expiration**, sessionLabel, allowWsAudio");
  });

  it.each(["spec", "product"])("is sent under its snake_case name in the create and the update, with kasm:apiNames %s", (apiNames) => {
    const report = reports[apiNames];
    expect(report.apiNames).toBe(apiNames);
    expect((report.createBody?.target_staging_config as Record<string, unknown> | undefined)?.session_label).toBe("first");
    expect((report.updateBody?.target_staging_config as Record<string, unknown> | undefined)?.session_label).toBe("second");
  });

  it("is a changed field in the provider's diff, which changes it in place", () => {
    for (const report of Object.values(reports)) {
      expect(report.changedFields).toEqual(["sessionLabel"]);
      expect(report.replaces).toEqual([]);
    }
  });

  it("needed no other edit: the copy differs from the sources only in the kind's file and what the generators wrote", () => {
    const generated = (file: string) => file === "README.md" || file.startsWith(`sdk${path.sep}kinds${path.sep}`);
    const differing = filesUnder(scratch).filter((file) => {
      if (generated(file)) return false;
      let original: Buffer;
      try {
        original = readFileSync(path.join(ROOT, file));
      } catch {
        return true;
      }
      return !original.equals(readFileSync(path.join(scratch, file)));
    });
    expect(differing).toEqual([KIND_FILE]);
  });
});
