/**
 * The `kasm-emulator` command line (dist/emulator/cli.js): it prints its URL once it accepts
 * requests, serves the seed, stops cleanly on SIGTERM, and refuses bad arguments.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { request } from "undici";
import { afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";

const ROOT = resolve(__dirname, "../..");
const CLI = join(ROOT, "dist/emulator/cli.js");
const SEED = join(ROOT, "examples/seed.json");

/** Newest modification time of the TypeScript sources the CLI is built from. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** The oldest compiled emulator file, or 0 when one is missing. */
function oldestBuild(): number {
  const dist = join(ROOT, "dist/emulator");
  if (!existsSync(CLI)) return 0;
  let oldest = Number.POSITIVE_INFINITY;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".js")) oldest = Math.min(oldest, statSync(path).mtimeMs);
    }
  };
  walk(dist);
  return oldest;
}

beforeAll(async () => {
  const sources = Math.max(newestSource(join(ROOT, "emulator")), newestSource(join(ROOT, "permissions")));
  if (oldestBuild() >= sources) return;
  // tsc emits JavaScript even when it reports type errors (provider/api is a work in progress
  // elsewhere), so the exit status of the build is not what decides: the emitted CLI is.
  await new Promise<void>((done) => {
    execFile("npm", ["run", "build"], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }, () => done());
  });
  expect(existsSync(CLI), "npm run build did not produce dist/emulator/cli.js").toBe(true);
}, 180_000);

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Start the CLI with `args`; `exited` resolves when it ends, with everything it printed. */
function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<Exit>((done) => child.on("close", (code, signal) => done({ code, signal, stdout, stderr })));
  /** The URL from the first stdout line that has one. */
  const url = new Promise<string>((found, fail) => {
    const look = () => {
      const line = stdout.split("\n").find((l) => /http:\/\/127\.0\.0\.1:\d+/.test(l));
      if (line) {
        child.stdout!.off("data", look);
        found(/http:\/\/127\.0\.0\.1:\d+/.exec(line)![0]);
      }
    };
    child.stdout!.on("data", look);
    void exited.then((e) => fail(new Error(`the CLI exited (${e.code ?? e.signal}) before printing its URL: ${e.stderr}`)));
  });
  // Tests of a CLI that must not start never wait for the URL: its rejection is expected then.
  url.catch(() => undefined);
  return { child, url, exited };
}

describe("kasm-emulator CLI", () => {
  it("prints its URL, serves the seed's users to the seed's admin key, and exits 0 on SIGTERM", async () => {
    const seed = JSON.parse(readFileSync(SEED, "utf8"));
    const admin = seed.apiKeys.find((k: { permissions: string[] }) => k.permissions.includes("Global Admin"));
    const { child, url, exited } = run(["--port", "0", "--seed", "examples/seed.json"]);
    const base = await url;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);

    const res = await request(`${base}/api/public/get_users`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ api_key: admin.key, api_key_secret: admin.secret }),
    });
    expect(res.statusCode).toBe(200);
    const body = (await res.body.json()) as { users: { username: string }[]; total: number };
    const expected = seed.users.map((u: { username: string }) => u.username).sort();
    expect(body.users.map((u) => u.username).sort()).toEqual(expected);
    expect(body.total).toBe(expected.length);

    child.kill("SIGTERM");
    const exit = await exited;
    expect(exit.code).toBe(0);
    expect(exit.signal).toBeNull();
  });

  it("refuses the seed's admin secret when wrong (401), so the key really comes from the seed", async () => {
    const { child, url, exited } = run(["--port", "0", "--seed", "examples/seed.json"]);
    const base = await url;
    const res = await request(`${base}/api/public/get_users`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ api_key: "admin-key", api_key_secret: "not-the-secret" }),
    });
    expect(res.statusCode).toBe(401);
    expect(await res.body.json()).toEqual({ error_message: "Invalid user name or password." });
    child.kill("SIGTERM");
    expect((await exited).code).toBe(0);
  });

  it("sends a server's is_draining only with --observed-fields", async () => {
    const seed = JSON.parse(readFileSync(SEED, "utf8"));
    const admin = seed.apiKeys.find((k: { permissions: string[] }) => k.permissions.includes("Global Admin"));
    const serverFields = async (args: string[]) => {
      const { child, url, exited } = run(["--port", "0", "--seed", "examples/seed.json", ...args]);
      const base = await url;
      const state = (await (await request(`${base}/__emulator/state`)).body.json()) as { servers: Record<string, unknown> };
      const res = await request(`${base}/api/public/get_servers`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ api_key: admin.key, api_key_secret: admin.secret, target_server: { server_id: Object.keys(state.servers)[0] } }),
      });
      expect(res.statusCode).toBe(200);
      const { server } = (await res.body.json()) as { server: Record<string, unknown> };
      child.kill("SIGTERM");
      expect((await exited).code).toBe(0);
      return Object.keys(server);
    };
    const plain = await serverFields([]);
    const observed = await serverFields(["--observed-fields"]);
    expect(plain).not.toContain("is_draining");
    expect(observed.filter((f) => !plain.includes(f))).toEqual(["is_draining"]);
  });

  it("speaks the product's names with --api-names product, and 1.15's answers with --auth-answers 1.15", async () => {
    const { child, url, exited } = run(["--port", "0", "--seed", "examples/seed.json", "--api-names", "product", "--auth-answers", "1.15"]);
    const base = await url;
    const post = (name: string, body: Record<string, unknown>) =>
      request(`${base}/api/public/${name}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const absent = await post("request_ws", {});
    expect(absent.statusCode).toBe(404);
    await absent.body.dump();
    const denied = await post("request_kasm", { api_key: "admin-key", api_key_secret: "not-the-secret" });
    expect(denied.statusCode).toBe(403);
    expect(await denied.body.json()).toEqual({ error_message: "Access Denied" });
    child.kill("SIGTERM");
    expect((await exited).code).toBe(0);
  });

  it.each([
    ["--api-names", "kasm", "--api-names must be spec or product, got kasm"],
    ["--auth-answers", "1.16", "--auth-answers must be 1.19 or 1.15, got 1.16"],
  ])("exits 2 for %s %s, naming the values", async (option, value, message) => {
    const exit = await run([option, value]).exited;
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain(message);
    expect(exit.stdout).toBe("");
  });

  it("--help describes --api-names and --auth-answers with their defaults", async () => {
    const exit = await run(["--help"]).exited;
    expect(exit.stdout).toContain(`default: the seed's "apiNames", else spec`);
    expect(exit.stdout).toContain(`default: the seed's "authAnswers", else 1.19`);
  });

  it("exits non-zero with a message on stderr when the seed file does not exist", async () => {
    const { exited } = run(["--port", "0", "--seed", "examples/no-such-seed.json"]);
    const exit = await exited;
    expect(exit.code).not.toBe(0);
    expect(exit.code).not.toBeNull();
    expect(exit.stderr).toContain("no-such-seed.json");
    expect(exit.stdout).not.toMatch(/http:\/\//);
  });

  it("exits 2 for --port abc, with usage on stderr", async () => {
    const { exited } = run(["--port", "abc"]);
    const exit = await exited;
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain("--port");
    expect(exit.stdout).toBe("");
  });

  it("exits 2 for an unknown option", async () => {
    const { exited } = run(["--prot", "8080"]);
    const exit = await exited;
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain("usage: kasm-emulator");
  });
  it("--help lists every option with its default, the environment variable and an example, and exits 0", async () => {
    const exit = await run(["--help"]).exited;
    expect(exit.code).toBe(0);
    for (const option of ["--port", "--host", "--seed", "--data", "--tls-key", "--tls-cert", "--observed-fields", "--verbose", "--help"])
      expect(exit.stdout).toContain(`  ${option}`);
    expect(exit.stdout).toContain("default: 127.0.0.1");
    expect(exit.stdout).toContain("KASM_EMULATOR_PORT");
    expect(exit.stdout).toContain("Example:");
    expect(exit.stdout).toMatch(/kasm-emulator --port 8443 --seed/);
  });

  describe("a port in use", () => {
    let blocker: ReturnType<typeof createServer>;
    let port: number;
    beforeAll(async () => {
      blocker = createServer();
      await new Promise<void>((done) => blocker.listen(0, "127.0.0.1", done));
      port = (blocker.address() as AddressInfo).port;
      return () => new Promise<void>((done) => blocker.close(() => done()));
    });

    it.each([
      ["--port", (p: number) => ({ args: ["--port", String(p), "--seed", "examples/seed.json"], env: {} })],
      ["KASM_EMULATOR_PORT", (p: number) => ({ args: ["--seed", "examples/seed.json"], env: { KASM_EMULATOR_PORT: String(p) } })],
    ])("given with %s: exits 1 saying so and naming the way out, without a stack trace", async (_how, make) => {
      const { args, env } = make(port);
      const exit = await run(args, env).exited;
      expect(exit.code).toBe(1);
      expect(exit.stdout).toBe("");
      expect(exit.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(exit.stderr).toContain("--port N");
      expect(exit.stderr).toContain("KASM_EMULATOR_PORT");
      expect(exit.stderr).not.toMatch(/EADDRINUSE|\n\s+at /);
    });
  });

  it("refuses a KASM_EMULATOR_PORT that is not a port, naming it", async () => {
    const { child, exited } = run(["--seed", "examples/seed.json"], { KASM_EMULATOR_PORT: "abc" });
    const exit = await exited;
    expect(child.exitCode).toBe(2);
    expect(exit.stderr).toContain("KASM_EMULATOR_PORT must be a number from 0 to 65535, got abc");
  });

  it.each([
    ["without --seed", [], "no --seed was given"],
    ["with a seed that has no apiKeys", ["--seed", "NO_KEYS"], "the seed has no apiKeys"],
  ])("warns at start %s that every call will answer 401, and how to add a key", async (_what, args, why) => {
    const dir = mkdtempSync(join(tmpdir(), "kasm-cli-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const noKeys = join(dir, "seed.json");
    writeFileSync(noKeys, JSON.stringify({ groups: [{ name: "Engineering" }] }));
    const { child, url, exited } = run(["--port", "0", ...args.map((a) => (a === "NO_KEYS" ? noKeys : a))]);
    const base = await url;
    const res = await request(`${base}/api/public/get_users`, { method: "POST", body: JSON.stringify({ api_key: "k", api_key_secret: "s" }) });
    expect(res.statusCode).toBe(401);
    await res.body.dump();
    child.kill("SIGTERM");
    const exit = await exited;
    expect(exit.stderr).toContain(`warning: there is no API key (${why}), so every API call will answer 401`);
    expect(exit.stderr).toContain('"apiKeys"');
    expect(exit.stderr).toContain("--seed FILE");
  });

  it("does not warn when the seed has an API key", async () => {
    const { child, url, exited } = run(["--port", "0", "--seed", "examples/seed.json"]);
    await url;
    child.kill("SIGTERM");
    expect((await exited).stderr).toBe("");
  });
});
