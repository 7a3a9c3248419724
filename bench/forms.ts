/**
 * The two forms of the same TypeScript program through the `pulumi` CLI, back to back: BENCH_USERS
 * (default 50) `User` resources, once with the dynamic resources of `pulumi-kasm` and once with the
 * native provider's generated Node.js SDK (`@pulumi-kasm/native`, on the plugin), both reading the
 * same `kasm:` stack settings, each against an emulator of its own in this process. Steps: `up`
 * (create), a preview without change, a `refresh`, `preview --diff` of an edit (another first name for every
 * user, the last name left out), `destroy`; the steps alternate between the forms, never
 * overlapping. Prints, per step and form, the seconds and the requests Kasm answered, after the
 * `up` the size of the stack's exported state, and what `preview --diff` shows of the edit for
 * the first user, and the machine's load average when the run ended (the figures are one machine's). Asserts nothing.
 *
 * Two more forms run the native program compiled by `tsc` before each command and run as JavaScript
 * (`runtime.options.typescript: false`): `compiled`, and `lean`, which also turns Node.js's stack
 * traces off (`nodeargs: --stack-trace-limit=0`). The Node.js host scripts/pulumi-cli/build.sh
 * builds honours both options through its launcher, as a current host does.
 *
 * A YAML program of the same users on the same plugin runs beside them, for the native form's time
 * without a Node.js program. BENCH_LATENCY_MS gives each emulator that latency on every request (a
 * real installation costs tens of milliseconds), BENCH_SKIP_CHECKPOINTS=true runs every command with
 * PULUMI_SKIP_CHECKPOINTS=true.
 *
 * The programs have pulumi-kasm as users have it: this checkout packed (`npm pack`, dist/ as
 * built) and unpacked into their node_modules beside a copy of @pulumi/pulumi, the rest linked
 * (test/cli/sdks.ts, programNodeModules). A dynamic resource's state then holds its provider as a
 * `require` of the package, as a user's does; linked to the checkout, it would hold the provider's
 * source, twice the state. The plugin runs from the unpacked package. The SDK is generated, built and packed first (scripts/sdk/generate.sh, as
 * `npm run sdk:generate`), which its own line times.
 *
 *   npm run build                                   # dist/, which the packed package holds
 *   PATH="$(bash scripts/pulumi-cli/build.sh):$PATH" npm run bench:forms
 *   BENCH_USERS=200 BENCH_LATENCY_MS=25 ...        # a larger program, at a real installation's pace
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { ADMIN, startTestEmulator, type TestEmulator } from "../test/helpers/emulator";
import { PulumiCli, diffBlocks, hasPulumi, type CliResult } from "../test/cli/pulumi-cli";
import { generateSdks, nodejsSdkTarball, programNodeModules, run } from "../test/cli/sdks";

const USERS = Number(process.env.BENCH_USERS ?? 50);
/** Each emulator answers every request this much later (its latency fault): a real installation costs tens of milliseconds a request. */
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 0);
/** `PULUMI_SKIP_CHECKPOINTS=true` for every command when set: the file backend then writes the state once, at the end. */
const SKIP_CHECKPOINTS = process.env.BENCH_SKIP_CHECKPOINTS === "true";
const PASSPHRASE = "bench";
const REPO = path.resolve(__dirname, "..");

/** The program of a form: each user with a first and a last name, or, edited, another first name and no last name. */
function program(module: string, edited: boolean): string {
  const fields = edited ? `firstName: "Edited"` : `firstName: "Bench", lastName: "User"`;
  return `import * as kasm from "${module}";
for (let i = 0; i < ${USERS}; i++) new kasm.User(\`u\${i}\`, { username: \`bench-u\${i}\`, ${fields} });
`;
}

/** The YAML program on the native provider: the same users, each a resource of its own (YAML has no loop). */
function yamlProgram(edited: boolean): string {
  const fields = edited ? "      firstName: Edited\n" : "      firstName: Bench\n      lastName: User\n";
  const users = Array.from({ length: USERS }, (_, i) => `  u${i}:\n    type: kasm:index:User\n    properties:\n      username: bench-u${i}\n${fields}`).join(
    "",
  );
  return `${projectFile("yaml")}resources:\n${users}`;
}

const PLUGIN_IN_PACKAGE = "plugins:\n  providers:\n    - name: kasm\n      path: ./node_modules/pulumi-kasm/bin\n";

const FORMS = {
  dynamic: { name: "bench-dynamic", runtime: "nodejs", module: "pulumi-kasm" },
  // The default provider of the native form reads the same `kasm:` settings as the dynamic resources.
  native: { name: "bench-native", runtime: "nodejs", module: "@pulumi-kasm/native" },
  // The same TypeScript program compiled by `tsc` before each command, run as JavaScript (`typescript: false`): no
  // ts-node compiling it at every run.
  compiled: { name: "bench-compiled", runtime: "nodejs", module: "@pulumi-kasm/native" },
  // The compiled program with Node.js's stack traces off (`nodeargs: --stack-trace-limit=0`): Pulumi's runtime records one
  // for every promise it tracks, mapped through source maps, and nothing else in a run without errors reads them.
  lean: { name: "bench-lean", runtime: "nodejs", module: "@pulumi-kasm/native" },
  // The same plugin from a YAML program: the native form without a Node.js program.
  yaml: { name: "bench-yaml", runtime: "yaml", module: undefined },
} as const;
type Form = keyof typeof FORMS;
/** The forms this run measures: BENCH_FORMS (`compiled,yaml`), default all; YAML always, for the ratios. */
const RUN_FORMS = (Object.keys(FORMS) as Form[]).filter(
  (form) => form === "yaml" || process.env.BENCH_FORMS === undefined || process.env.BENCH_FORMS.split(",").includes(form),
);
/** Node.js options of the TypeScript programs (`runtime.options.nodeargs`), such as `--stack-trace-limit=1`: BENCH_NODEARGS. */
const NODEARGS = process.env.BENCH_NODEARGS;
/** The `lean` form's Node.js options. */
const LEAN_NODEARGS = "--stack-trace-limit=0";
/** The forms whose program `tsc` compiles before each command, run as JavaScript (`typescript: false`). */
function isCompiled(form: Form): boolean {
  return form === "compiled" || form === "lean";
}

/** A form's Pulumi.yaml without its resources: the runtime and its options, and the plugin from the unpacked package (every form but the dynamic one). */
function projectFile(form: Form): string {
  const { name, runtime } = FORMS[form];
  const nodeargs = [...(form === "lean" ? [LEAN_NODEARGS] : []), ...(runtime === "nodejs" && NODEARGS ? [NODEARGS] : [])].join(" ");
  const options = [...(isCompiled(form) ? ["    typescript: false\n"] : []), ...(nodeargs ? [`    nodeargs: ${JSON.stringify(nodeargs)}\n`] : [])];
  const runtimeBlock = options.length === 0 ? `runtime: ${runtime}\n` : `runtime:\n  name: ${runtime}\n  options:\n${options.join("")}`;
  return `name: ${name}\n${runtimeBlock}${form === "dynamic" ? "" : PLUGIN_IN_PACKAGE}`;
}

/** Write the program of a form, as created or edited; the compiled form's is compiled, as its `npm run build` would. */
async function writeProgram(programDir: string, form: Form, edited: boolean): Promise<void> {
  const { module } = FORMS[form];
  if (module === undefined) writeFileSync(path.join(programDir, "Pulumi.yaml"), yamlProgram(edited));
  else writeFileSync(path.join(programDir, "index.ts"), program(module, edited));
  if (!isCompiled(form)) return;
  const compiled = await run(process.execPath, [TSC, "-p", programDir], { cwd: programDir });
  if (compiled.code !== 0) throw new Error(`tsc failed:\n${compiled.output}`);
}

/** This repository's TypeScript compiler, which the compiled form's program is built with. */
const TSC = path.join(REPO, "node_modules", "typescript", "bin", "tsc");
/** The compiled form's tsconfig.json: CommonJS beside its source, as Pulumi's TypeScript template writes it. */
const COMPILED_TSCONFIG = { compilerOptions: { target: "es2022", module: "commonjs", strict: true, types: [] }, files: ["index.ts"] };

/**
 * The steps, in order. The edit gives each user another first name and leaves its last name out,
 * which Kasm keeps: the preview's display of the first user tells what each form shows of that.
 */
const STEPS = ["up (create)", "preview (no change)", "refresh", "preview --diff (edit)", "destroy"] as const;

/** Run `fn`, answering its seconds, the requests the emulator answered meanwhile, and what the CLI printed. */
async function measured(emulator: TestEmulator, fn: () => Promise<CliResult>, what: string): Promise<{ seconds: number; requests: number; stdout: string }> {
  const from = emulator.requests.length;
  const started = process.hrtime.bigint();
  const result = await fn();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.code !== 0) throw new Error(`pulumi ${what} failed:\n${result.stdout.slice(-3000)}\n${result.stderr}`);
  return { seconds, requests: emulator.requests.length - from, stdout: result.stdout };
}

async function main(): Promise<void> {
  if (!hasPulumi) throw new Error('no pulumi on PATH: PATH="$(bash scripts/pulumi-cli/build.sh):$PATH" first');
  const dir = mkdtempSync(path.join(tmpdir(), "kasm-bench-forms-"));
  const emulators: TestEmulator[] = [];
  try {
    const started = process.hrtime.bigint();
    await generateSdks(path.join(dir, "sdk"), ["nodejs"], { ...process.env, PULUMI_HOME: path.join(dir, "sdk-home"), PULUMI_SKIP_UPDATE_CHECK: "true" });
    const generation = Number(process.hrtime.bigint() - started) / 1e9;
    // --ignore-scripts: dist/ is built already (prepack would build it again).
    const packed = await run("npm", ["pack", REPO, "--pack-destination", dir, "--json", "--loglevel=error", "--ignore-scripts"], { cwd: dir });
    if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.output}`);
    const packageTarball = path.join(dir, (JSON.parse(packed.output.slice(packed.output.indexOf("["))) as { filename: string }[])[0].filename);

    const stacks = {} as Record<Form, { cli: PulumiCli; emulator: TestEmulator }>;
    for (const form of RUN_FORMS) {
      const programDir = path.join(dir, form);
      mkdirSync(programDir, { recursive: true });
      writeFileSync(path.join(programDir, "Pulumi.yaml"), projectFile(form));
      writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: `bench-${form}`, main: isCompiled(form) ? "index.js" : "index.ts" }));
      if (isCompiled(form)) writeFileSync(path.join(programDir, "tsconfig.json"), JSON.stringify(COMPILED_TSCONFIG));
      const onNative = FORMS[form].module === "@pulumi-kasm/native";
      await programNodeModules(programDir, onNative ? [packageTarball, nodejsSdkTarball(path.join(dir, "sdk"))] : [packageTarball], {
        copied: ["@pulumi/pulumi"],
      });
      await writeProgram(programDir, form, false);
      const emulator = await startTestEmulator({});
      if (LATENCY_MS > 0) await emulator.faults({ rate: 1, kinds: ["latency"], latencyMs: LATENCY_MS });
      emulators.push(emulator);
      const cli = new PulumiCli({
        programDir,
        stack: "bench",
        workDir: path.join(dir, `${form}-work`),
        passphrase: PASSPHRASE,
        config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret },
        secretKeys: ["kasm:apiKeySecret"],
        env: SKIP_CHECKPOINTS ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {},
      });
      await cli.init();
      stacks[form] = { cli, emulator };
    }

    const rows: { step: string; form: Form; seconds: number; requests: number }[] = [];
    const stateBytes = {} as Record<Form, number>;
    const editShown = {} as Record<Form, string[]>;
    for (const step of STEPS) {
      for (const form of RUN_FORMS) {
        const { cli, emulator } = stacks[form];
        if (step === "preview --diff (edit)") await writeProgram(cli.options.programDir, form, true);
        const run =
          step === "up (create)"
            ? () => cli.up()
            : step === "destroy"
              ? () => cli.destroy()
              : step === "refresh"
                ? () => cli.refresh()
                : step === "preview --diff (edit)"
                  ? () => cli.preview(["--diff"])
                  : () => cli.preview();
        const { stdout, ...figures } = await measured(emulator, run, `${step} (${form})`);
        rows.push({ step, form, ...figures });
        console.error(`${step}, ${form}: ${figures.seconds.toFixed(1)} s, ${figures.requests} request(s), load ${loadavg()[0].toFixed(2)}`);
        if (step === "up (create)") stateBytes[form] = Buffer.byteLength((await cli.ok(["stack", "export", "--stack", "bench"])).stdout);
        if (step === "preview --diff (edit)") editShown[form] = diffBlocks(stdout).u0?.lines ?? [];
      }
    }

    const forms = RUN_FORMS;
    console.log(
      `${USERS} User resources through the pulumi CLI: the dynamic form (pulumi-kasm), the native one in TypeScript (@pulumi-kasm/native on the plugin) and in YAML; ` +
        `${LATENCY_MS} ms a request${SKIP_CHECKPOINTS ? ", PULUMI_SKIP_CHECKPOINTS=true" : ""}`,
    );
    console.log(
      `  load average at the end (1, 5, 15 min): ${loadavg()
        .map((load) => load.toFixed(2))
        .join(", ")}, ${cpus().length} CPU(s)`,
    );
    console.log(`  generate, build and pack the Node.js SDK (once): ${generation.toFixed(1)} s`);
    const ratioForms = forms.filter((form) => form !== "yaml");
    console.log(
      `  ${"step".padEnd(22)} ${forms.map((form) => form.padStart(18)).join(" ")} ${ratioForms.map((form) => `${form} / yaml`.padStart(18)).join(" ")}`,
    );
    for (const step of STEPS) {
      const row = (form: Form) => rows.find((r) => r.step === step && r.form === form)!;
      const cell = (form: Form) => `${row(form).seconds.toFixed(1)} s, ${row(form).requests} req`.padStart(18);
      const ratio = (form: Form) => `${(row(form).seconds / row("yaml").seconds).toFixed(2)}x`;
      console.log(`  ${step.padEnd(22)} ${forms.map(cell).join(" ")} ${ratioForms.map((form) => ratio(form).padStart(18)).join(" ")}`);
    }
    console.log(`  ${"state after up".padEnd(22)} ${forms.map((form) => `${(stateBytes[form] / 1024).toFixed(0)} KiB`.padStart(18)).join(" ")}`);
    console.log(`  ${"state per user".padEnd(22)} ${forms.map((form) => `${(stateBytes[form] / USERS).toFixed(0)} bytes`.padStart(18)).join(" ")}`);
    for (const form of RUN_FORMS) console.log(`  the edit of u0 in preview --diff, ${form}: ${editShown[form].join("; ") || "(no change shown)"}`);
  } finally {
    await Promise.all(emulators.map((emulator) => emulator.close()));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
