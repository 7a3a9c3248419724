/**
 * `kasm-import --language` and `--installation`: the writers of each language on one installation
 * and on a fleet of two that hold the same names (a group `Engineering`, a workspace `Chrome`, a
 * user `ada@corp.example`). Each program declares every object once, on its installation's own
 * provider, with references instead of ids, the secrets from the configuration, and names that do
 * not collide. Running them through the pulumi CLI is test/cli/import-languages.test.ts.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a YAML program refers to a resource as ${name.output}, which the tests look for as text
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { capture } from "./helpers";
import { runImport } from "../../importer/cli";
import { GO_FLOAT_INPUTS } from "../../importer/write/emit/go";
import { idLabels } from "../../importer/write/emit/native";
import { RawId, Ref, Secret } from "../../importer/write/model";
import { IMPORT_KINDS } from "../../importer/kinds";
import { idOutputOf } from "../../permissions/kinds";
import { kinds } from "../../provider";
import { packageSchema } from "../../provider/native/schema";
import { REPO } from "../e2e/helpers";
import { installationEnv, LANGUAGE_SEED } from "./language-seed";

let dir: string;
let prod: TestEmulator;
let lab: TestEmulator;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "import-languages-"));
  prod = await startTestEmulator(LANGUAGE_SEED, { apiNames: "product" });
  lab = await startTestEmulator(LANGUAGE_SEED, { apiNames: "spec" });
});
afterAll(async () => {
  await prod?.close();
  await lab?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Run kasm-import with `env` (the settings) into `out`; its status and output. */
async function importInto(out: string, args: readonly string[], env: NodeJS.ProcessEnv) {
  const stdout = capture();
  const stderr = capture();
  const status = await runImport(["--out", out, ...args], { stdout: stdout.stream, stderr: stderr.stream, cwd: dir, env });
  return { status, stdout: stdout.text(), stderr: stderr.text(), file: (name: string) => readFileSync(path.join(out, name), "utf8") };
}

const single = (emulator: TestEmulator) => installationEnv(emulator, ADMIN);
const fleet = () => ({ ...installationEnv(prod, ADMIN, "prod"), ...installationEnv(lab, ADMIN, "lab") });

describe("kasm-import --language", () => {
  it("python: one provider from the stack's settings, snake_case arguments, references through the declared objects", async () => {
    const result = await importInto(path.join(dir, "py"), ["--language", "python"], single(prod));
    expect(result.status, result.stderr).toBe(0);
    const main = result.file("__main__.py");
    expect(main).toContain("import pulumi_kasm as kasm");
    expect(main).toContain('kasm_provider = kasm.Provider(\n    "kasm",\n    base_url=config.require("kasmBaseUrl"),');
    expect(main).toContain("on_kasm = pulumi.ResourceOptions(provider=kasm_provider, protect=True)");
    expect(main).toMatch(/ada_corp_example = kasm\.User\(\n {4}"ada-corp-example",\n {4}username="ada@corp\.example",\n {4}first_name="Ada",/);
    expect(main).toContain("    user_id=ada_corp_example.user_id,\n    group_ids=[engineering.group_id],\n");
    expect(main).toContain("    group_id=engineering.group_id,\n    image_id=chrome.image_id,\n");
    // The default take-over is pulumi import: no adopt, and import.json lists every declared object on the provider.
    expect(main).not.toContain("adopt");
    expect(main).toContain("    group_id=engineering.group_id,\n    image_id=chrome.image_id,\n    opts=on_kasm,\n)");
    expect(result.file("Pulumi.yaml")).toContain("kasmApiNames:\n    type: string\n    default: product");
    const readme = result.file("README.md");
    expect(readme).toContain("pulumi config set kasmBaseUrl");
    expect(readme).toContain("pulumi up --yes --stack dev --target urn:pulumi:dev::py::pulumi:providers:kasm::kasm ");
    expect(readme).toContain("pulumi import --yes --stack dev --file import.json --generate-code=false ");
    const list = JSON.parse(result.file("import.json")) as {
      nameTable: Record<string, string>;
      resources: { type: string; name: string; id: string; provider: string }[];
    };
    expect(list.nameTable).toEqual({ kasm: "urn:pulumi:dev::py::pulumi:providers:kasm::kasm" });
    const declared = [...main.matchAll(/= kasm\.(\w+)\(\n {4}"([^"]+)",|^kasm\.(\w+)\(\n {4}"([^"]+)",/gm)].map(
      (m) => `kasm:index:${m[1] ?? m[3]}::${m[2] ?? m[4]}`,
    );
    expect(list.resources.map((r) => `${r.type}::${r.name}`).sort()).toEqual(declared.filter((d) => !d.includes(":Provider::")).sort());
    expect(list.resources.every((r) => r.provider === "kasm" && /^[0-9a-f-]+/.test(r.id))).toBe(true);
  });

  it("names the ids a value holds, inside lists and objects too, in the comment Python and YAML write after it", () => {
    const group = new RawId("3c4d5e6f7a8b49c0d1e2f3a4b5c6d7e8", "All Users");
    expect(idLabels(group)).toBe("All Users");
    expect(idLabels([new Ref("eng", "groupId", "eng", "Group"), group, new RawId("4d5e", undefined)])).toBe("All Users");
    expect(idLabels({ zone: new RawId("f3d6", "default"), image: [new RawId("170d", "Chrome\nstable")] })).toBe("default, Chrome stable");
    expect(idLabels([new Secret("key"), "literal", 3])).toBe("");
  });

  it("--take-over adopt: adopt=True on every resource, no import.json; --stack names the stack of the import's URNs", async () => {
    const adopted = await importInto(path.join(dir, "py-adopt"), ["--language", "python", "--take-over", "adopt"], single(prod));
    expect(adopted.status, adopted.stderr).toBe(0);
    expect(adopted.file("__main__.py")).toContain("    adopt=True,\n    opts=on_kasm,\n)");
    expect(existsSync(path.join(dir, "py-adopt", "import.json"))).toBe(false);
    expect(adopted.file("README.md")).not.toContain("import.json");

    const staged = await importInto(path.join(dir, "yaml-staging"), ["--language", "yaml", "--stack", "staging", "--no-protect"], single(lab));
    expect(staged.status, staged.stderr).toBe(0);
    expect(JSON.parse(staged.file("import.json")).nameTable).toEqual({ kasm: "urn:pulumi:staging::yaml-staging::pulumi:providers:kasm::kasm" });
    expect(staged.file("README.md")).toContain("pulumi import --yes --stack staging --file import.json --generate-code=false --protect=false ");

    const dynamic = await importInto(path.join(dir, "ts-import"), ["--take-over", "import"], single(prod));
    expect(dynamic.status).toBe(2);
    expect(dynamic.stderr).toContain("--take-over import needs the native provider");
  });

  it("yaml: resources keyed by name, ${name.output} references, the provider and protect as options", async () => {
    const result = await importInto(path.join(dir, "yaml"), ["--language", "yaml"], single(lab));
    expect(result.status, result.stderr).toBe(0);
    const program = result.file("Pulumi.yaml");
    expect(program).toContain("runtime: yaml");
    expect(program).toContain("  kasm:\n    type: pulumi:providers:kasm\n    properties:\n      baseUrl: ${kasmBaseUrl}");
    expect(program).toContain('      userId: "${ada-corp-example.userId}"');
    expect(program).toContain("    options:\n      provider: ${kasm}\n      protect: true");
    expect(program).toContain("kasmApiKeySecret:\n    type: string\n    secret: true");
    // npm installs the plugin beside the program, not into a project above it.
    expect(JSON.parse(result.file("package.json"))).toMatchObject({ name: "yaml", private: true });
  });

  it("go: kasm.New<Kind> with typed inputs, variables only where referred to", async () => {
    const result = await importInto(path.join(dir, "go"), ["--language", "go"], single(prod));
    expect(result.status, result.stderr).toBe(0);
    const main = result.file("main.go");
    expect(main).toContain('"pulumi-kasm.local/sdk/go/kasm"');
    expect(main).toContain('engineering, err := kasm.NewGroup(ctx, "engineering", &kasm.GroupArgs{');
    expect(main).toContain("UserId: adaCorpExample.UserId,");
    expect(main).toContain("pulumi.Provider(kasmProvider), pulumi.Protect(true))");
    expect(main).toMatch(/if _, err := kasm\.NewStagingConfig\(ctx, "default-chrome", &kasm\.StagingConfigArgs\{[^}]*NumSessions: pulumi\.Int\(2\),/);
    expect(result.file("go.mod")).toContain("replace pulumi-kasm.local/sdk/go => ./sdk/go");
  });

  it("typescript --form native: @pulumi-kasm/native, an explicit provider; the default stays the dynamic program", async () => {
    const native = await importInto(path.join(dir, "ts-native"), ["--form", "native"], single(prod));
    expect(native.status, native.stderr).toBe(0);
    const index = native.file("index.ts");
    expect(index).toContain('import * as kasm from "@pulumi-kasm/native";');
    expect(index).toContain("const onKasm: pulumi.CustomResourceOptions = { provider: kasmProvider, protect: true };");
    expect(index).toContain("  userId: adaCorpExample.userId,");
    const dynamic = await importInto(path.join(dir, "ts"), [], single(prod));
    expect(dynamic.file("index.ts")).toContain('import * as kasm from "pulumi-kasm";');
    expect(dynamic.file("index.ts")).toContain("users.csv");
  });

  it("refuses a form or a language it does not know, and a fleet in the dynamic form, naming the way out", async () => {
    const bad = await importInto(path.join(dir, "bad"), ["--language", "rust"], single(prod));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--language 'rust': choose one of typescript, python, go, yaml");
    const dynamic = await importInto(path.join(dir, "bad"), ["--installation", "prod"], fleet());
    expect(dynamic.status).toBe(2);
    expect(dynamic.stderr).toContain("add --language python, go or yaml, or --form native");
    const wrongKey = await importInto(path.join(dir, "bad"), ["--language", "yaml", "--installation", "prod", "--config", "kasm:baseUrl=x"], fleet());
    expect(wrongKey.status).toBe(2);
    expect(wrongKey.stderr).toContain("kasm-prod:baseUrl");
  });
});

describe("kasm-import --installation: a fleet in one program", () => {
  it("gives every resource and variable its installation's prefix, one provider each, and no two the same name", async () => {
    const result = await importInto(path.join(dir, "fleet"), ["--language", "yaml", "--installation", "prod", "--installation", "lab"], fleet());
    expect(result.status, result.stderr).toBe(0);
    const program = result.file("Pulumi.yaml");
    const keys = [...program.matchAll(/^ {2}([a-z0-9-]+):\n {4}type:/gm)].map((m) => m[1]);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(
      expect.arrayContaining(["kasm-prod", "kasm-lab", "prod-engineering", "lab-ada-corp-example", "prod-chrome", "lab-ada-corp-example-groups"]),
    );
    expect(program).toContain('      userId: "${lab-ada-corp-example.userId}"');
    expect(program).toContain("      provider: ${kasm-lab}");
    expect(program).toContain("prodApiNames:\n    type: string\n    default: product");
    expect(program).toContain("labApiNames:\n    type: string\n    default: spec");
    expect(result.stdout).toContain(`requests to ${prod.url}`);
    expect(result.stdout).toContain(`requests to ${lab.url}`);
  });

  it("--pulumi-import-file: names prefixed, each installation's objects on its own provider", async () => {
    const file = path.join(dir, "fleet.json");
    const urn = (name: string) => `urn:pulumi:dev::fleet::pulumi:providers:kasm::${name}`;
    const result = await importInto(
      path.join(dir, "unused"),
      [
        "--installation",
        "prod",
        "--installation",
        "lab",
        "--pulumi-import-file",
        file,
        "--pulumi-import-provider",
        `prod=${urn("kasm-prod")}`,
        "--pulumi-import-provider",
        `lab=${urn("kasm-lab")}`,
      ],
      fleet(),
    );
    expect(result.status, result.stderr).toBe(0);
    const list = JSON.parse(readFileSync(file, "utf8")) as { nameTable: Record<string, string>; resources: { name: string; provider: string; type: string }[] };
    expect(list.nameTable).toEqual({ "kasm-prod": urn("kasm-prod"), "kasm-lab": urn("kasm-lab") });
    const names = list.resources.map((r) => `${r.type}::${r.name}`);
    expect(new Set(names).size).toBe(names.length);
    expect(list.resources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "kasm:index:User", name: "prod-ada@corp.example", provider: "kasm-prod" }),
        expect.objectContaining({ type: "kasm:index:User", name: "lab-ada@corp.example", provider: "kasm-lab" }),
      ]),
    );
  });
});

describe("README.md's kasm-import section on languages and fleets", () => {
  const readme = readFileSync(path.join(REPO, "README.md"), "utf8");
  const start = readme.indexOf("## Take over an existing installation: `kasm-import`");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 3));
  const lines = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1].trim().split("\n"));

  it("its commands, run as written against two installations, write the Python program and the fleet's YAML program it describes", async () => {
    // The section's addresses and keys, made the emulators' (both hold the admin key).
    const values: Record<string, string> = {
      "https://kasm.example.com": prod.url,
      "https://lab.kasm.example.com": lab.url,
      "import-key": ADMIN.key,
      "lab-key": ADMIN.key,
      "import-secret": ADMIN.secret,
      "lab-secret": ADMIN.secret,
    };
    const env: NodeJS.ProcessEnv = {};
    for (const line of lines.filter((l) => l.startsWith("export ")))
      for (const pair of line.slice("export ".length).split(/\s+#/)[0].trim().split(/\s+/)) {
        const [key, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
        env[key] = values[value] ?? value;
      }
    const commands = lines.filter((l) => /^npx kasm-import .*--language/.test(l)).map((l) => l.split(/\s+#/)[0].trim().split(/\s+/).slice(2));
    expect(commands.length).toBe(2);
    const cwd = mkdtempSync(path.join(dir, "readme-"));
    for (const args of commands) {
      const stderr = capture();
      const status = await runImport(args, { stdout: capture().stream, stderr: stderr.stream, cwd, env });
      expect(status, `${args.join(" ")}\n${stderr.text()}`).toBe(0);
    }
    const python = readFileSync(path.join(cwd, "kasm-python", "__main__.py"), "utf8");
    expect(python).toContain("import pulumi_kasm as kasm");
    expect(python).toContain('first_name="Ada"');
    expect(python).toContain("user_id=ada_corp_example.user_id");
    expect(existsSync(path.join(cwd, "kasm-python", "README.md"))).toBe(true);
    const fleetProgram = readFileSync(path.join(cwd, "kasm-fleet", "Pulumi.yaml"), "utf8");
    for (const name of ["kasm-prod", "kasm-lab", "prod-engineering", "prod-ada-corp-example", "lab-ada-corp-example"])
      expect(fleetProgram).toContain(`\n  ${name}:\n`);
    expect(fleetProgram).toContain("baseUrl: ${prodBaseUrl}");
    expect(fleetProgram).toContain("prodApiKey:");
    expect(fleetProgram).toMatch(/userId: "\$\{[a-z0-9-]+\.userId\}"/);
    expect(fleetProgram).toMatch(/\n {4}options:\n {6}provider: \$\{kasm-prod\}\n {6}protect: true/);
    expect(fleetProgram).not.toContain("adopt");
    expect(Object.keys(JSON.parse(readFileSync(path.join(cwd, "kasm-fleet", "import.json"), "utf8")).nameTable)).toEqual(["kasm-prod", "kasm-lab"]);
  });

  it("the Go program it describes: kasm.NewUser with the provider and protect options, and a go.mod that replaces the SDK's module", async () => {
    const result = await importInto(path.join(dir, "readme-go"), ["--language", "go"], single(prod));
    expect(result.file("main.go")).toMatch(
      /kasm\.NewUser\(ctx, "ada-corp-example", &kasm\.UserArgs\{[^}]*\}, pulumi\.Provider\(kasmProvider\), pulumi\.Protect\(true\)\)/,
    );
    expect(result.file("go.mod")).toMatch(/^replace pulumi-kasm\.local\/sdk\/go => /m);
    expect(section).toContain("pulumi.Provider(kasmProvider), pulumi.Protect(true))");
  });
});

describe("the Go writer's types", () => {
  type Spec = { type?: string; items?: Spec; additionalProperties?: unknown };
  const schema = JSON.parse(packageSchema("0.0.0", kinds)) as {
    resources: Record<string, { inputProperties: Record<string, Spec>; required?: string[] }>;
  };
  const importedKinds = [...new Set(IMPORT_KINDS.flatMap((k) => k.kinds))].filter((kind) => kind !== "UserSet");

  it("its float64 inputs are exactly the schema's number inputs of the kinds it writes; its lists are lists of strings; its objects are maps", () => {
    for (const kind of importedKinds) {
      const inputs = schema.resources[`kasm:index:${kind}`].inputProperties;
      const numbers = Object.entries(inputs)
        .filter(([, spec]) => spec.type === "number")
        .map(([name]) => name);
      expect([kind, numbers]).toEqual([kind, GO_FLOAT_INPUTS[kind] ?? []]);
      for (const [name, spec] of Object.entries(inputs)) {
        if (spec.type === "array") expect([kind, name, spec.items?.type]).toEqual([kind, name, "string"]);
        if (spec.type === "object") expect([kind, name, spec.additionalProperties !== undefined]).toEqual([kind, name, true]);
      }
    }
  });

  it("every id output it refers to is required in the schema (a plain output in Go and TypeScript, passed on as an input)", () => {
    for (const kind of importedKinds) {
      const output = idOutputOf(kind);
      if (output !== undefined) expect(schema.resources[`kasm:index:${kind}`].required ?? []).toContain(output);
    }
  });
});
