/**
 * Where a TypeScript program's CPU goes during `pulumi preview`, by owner: BENCH_USERS (default
 * 1,000) `User` resources created in a preview, once in the dynamic form (`pulumi-kasm`) and once
 * on the native provider's generated SDK (`@pulumi-kasm/native`), through the `pulumi` CLI against
 * an emulator. The program starts Node's own CPU profiler (`node:inspector`) before it loads the
 * package, and writes the profile as it exits; the samples are then summed by the file they ran
 * in: this package (its dynamic resources, or the generated SDK), Pulumi's Node.js runtime,
 * the stack traces Pulumi's runtime captures for every promise it tracks (mapped through source
 * maps by the `source-map-support` its program runner installs), gRPC and protobuf, Node itself,
 * and the garbage collector. Idle time (waiting on the engine) is left out. Asserts nothing.
 *
 * It answers the question "what in a TypeScript program costs more than the same program in
 * YAML, and is any of it ours": the YAML program has no Node.js process at all.
 *
 *   npm run build
 *   PATH="$(bash scripts/pulumi-cli/build.sh):$PATH" npm run bench:program-cpu
 *   BENCH_USERS=200 ...
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ADMIN, startTestEmulator } from "../test/helpers/emulator";
import { PulumiCli, hasPulumi } from "../test/cli/pulumi-cli";
import { generateSdks, nodejsSdkTarball, programNodeModules, run } from "../test/cli/sdks";

const USERS = Number(process.env.BENCH_USERS ?? 1000);
const PASSPHRASE = "bench";
const REPO = path.resolve(__dirname, "..");

const FORMS = { dynamic: "pulumi-kasm", native: "@pulumi-kasm/native" } as const;
type Form = keyof typeof FORMS;

/** The program: the profiler first (before the package loads), then the users. */
function program(module: string, profileFile: string): string {
  return `import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";
const session = new Session();
session.connect();
session.post("Profiler.enable");
session.post("Profiler.start");
process.on("exit", () => {
  // An in-process session answers at once: the profile is written before the process ends.
  session.post("Profiler.stop", (_error, result) => writeFileSync(${JSON.stringify(profileFile)}, JSON.stringify(result.profile)));
});
// eslint-disable-next-line @typescript-eslint/no-require-imports
const kasm = require(${JSON.stringify(module)});
for (let i = 0; i < ${USERS}; i++) new kasm.User(\`u\${i}\`, { username: \`bench-u\${i}\`, firstName: "Bench" });
`;
}

interface CpuProfile {
  readonly nodes: readonly { readonly id: number; readonly callFrame: { readonly url: string; readonly functionName: string } }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Who a sample's code belongs to. */
function ownerOf(url: string, functionName: string): string | undefined {
  if (functionName === "(idle)") return undefined;
  if (functionName === "(garbage collector)") return "garbage collector";
  if (url.includes("@pulumi-kasm/native")) return "this package (generated SDK)";
  if (url.includes("/pulumi-kasm/") && !url.includes("/node_modules/@pulumi/")) return "this package (dynamic resources)";
  if (url.includes("source-map") || url.includes("/vendor/ts-node")) return "Pulumi: stack traces through source maps";
  if (url.includes("@pulumi/pulumi")) return "Pulumi: Node.js runtime";
  if (url.includes("grpc") || url.includes("protobuf")) return "gRPC and protobuf";
  if (url.startsWith("node:") || url === "") return "Node.js itself";
  return "other";
}

/** Milliseconds of CPU by owner. */
function summed(profile: CpuProfile): Map<string, number> {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const owners = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id);
    const owner = frame && ownerOf(frame.url, frame.functionName);
    if (owner !== undefined) owners.set(owner, (owners.get(owner) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return owners;
}

async function main(): Promise<void> {
  if (!hasPulumi) throw new Error('no pulumi on PATH: PATH="$(bash scripts/pulumi-cli/build.sh):$PATH" first');
  const dir = mkdtempSync(path.join(tmpdir(), "kasm-bench-program-cpu-"));
  const emulator = await startTestEmulator({});
  try {
    await generateSdks(path.join(dir, "sdk"), ["nodejs"], { ...process.env, PULUMI_HOME: path.join(dir, "sdk-home"), PULUMI_SKIP_UPDATE_CHECK: "true" });
    const packed = await run("npm", ["pack", REPO, "--pack-destination", dir, "--json", "--loglevel=error", "--ignore-scripts"], { cwd: dir });
    if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.output}`);
    const packageTarball = path.join(dir, (JSON.parse(packed.output.slice(packed.output.indexOf("["))) as { filename: string }[])[0].filename);
    const results = {} as Record<Form, Map<string, number>>;
    for (const form of Object.keys(FORMS) as Form[]) {
      const programDir = path.join(dir, form);
      const profileFile = path.join(dir, `${form}.cpuprofile`);
      mkdirSync(programDir, { recursive: true });
      writeFileSync(
        path.join(programDir, "Pulumi.yaml"),
        `name: bench-${form}\nruntime: nodejs\nplugins:\n  providers:\n    - name: kasm\n      path: ./node_modules/pulumi-kasm/bin\n`,
      );
      writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: `bench-${form}`, main: "index.ts" }));
      writeFileSync(path.join(programDir, "index.ts"), program(FORMS[form], profileFile));
      await programNodeModules(programDir, form === "native" ? [packageTarball, nodejsSdkTarball(path.join(dir, "sdk"))] : [packageTarball], {
        copied: ["@pulumi/pulumi"],
      });
      const cli = new PulumiCli({
        programDir,
        stack: "bench",
        workDir: path.join(dir, `${form}-work`),
        passphrase: PASSPHRASE,
        config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret },
        secretKeys: ["kasm:apiKeySecret"],
      });
      await cli.init();
      const preview = await cli.preview();
      if (preview.code !== 0) throw new Error(`pulumi preview (${form}) failed:\n${preview.stdout.slice(-3000)}\n${preview.stderr}`);
      results[form] = summed(JSON.parse(readFileSync(profileFile, "utf8")) as CpuProfile);
    }
    const owners = [...new Set(Object.values(results).flatMap((r) => [...r.keys()]))].sort(
      (a, b) => (results.native.get(b) ?? 0) + (results.dynamic.get(b) ?? 0) - (results.native.get(a) ?? 0) - (results.dynamic.get(a) ?? 0),
    );
    console.log(`CPU of the TypeScript program in \`pulumi preview\` of ${USERS} new User resources, by owner (ms; idle left out)`);
    console.log(`  ${"owner".padEnd(44)} ${"dynamic".padStart(9)} ${"native".padStart(9)}`);
    for (const owner of owners)
      console.log(
        `  ${owner.padEnd(44)} ${(results.dynamic.get(owner) ?? 0).toFixed(0).padStart(9)} ${(results.native.get(owner) ?? 0).toFixed(0).padStart(9)}`,
      );
    const total = (form: Form) => [...results[form].values()].reduce((a, b) => a + b, 0);
    console.log(`  ${"total".padEnd(44)} ${total("dynamic").toFixed(0).padStart(9)} ${total("native").toFixed(0).padStart(9)}`);
  } finally {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
