/**
 * Emulator throughput: get_user and create_user with concurrent keep-alive clients on loopback.
 *
 * The emulator runs in its own process (as `npx kasm-emulator` does), the load comes from this
 * one through an undici Pool. Prints requests per second and latency percentiles; asserts nothing.
 *
 *   npm run bench                       # defaults
 *   BENCH_SECONDS=10 BENCH_CONNECTIONS=32 npm run bench
 */
import { Pool } from "undici";
import { startEmulatorProcess, type EmulatorProcess } from "./emulator-process";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const CREDS = { api_key: "bench-key", api_key_secret: "bench-secret" };

/** The emulator in its own process, with 1,000 users (half of them in Engineering) and the bench key. */
function startSeededEmulator(): Promise<EmulatorProcess> {
  const users = Array.from({ length: 1000 }, (_, i) => ({ username: `user${i}`, groups: i % 2 ? ["Engineering"] : [] }));
  return startEmulatorProcess({
    apiKeys: [{ name: "bench", key: CREDS.api_key, secret: CREDS.api_key_secret, permissions: ["Global Admin"] }],
    groups: [{ name: "Engineering" }],
    users,
  });
}

interface Result {
  requests: number;
  errors: number;
  latenciesMs: number[];
}

/** Run `makeBody` requests against `path` from CONNECTIONS concurrent loops for SECONDS. */
async function load(pool: Pool, path: string, makeBody: (n: number) => object): Promise<Result> {
  const result: Result = { requests: 0, errors: 0, latenciesMs: [] };
  const deadline = performance.now() + SECONDS * 1000;
  let counter = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const n = counter++;
      const started = performance.now();
      const res = await pool.request({
        method: "POST",
        path,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...CREDS, ...makeBody(n) }),
      });
      await res.body.dump();
      result.latenciesMs.push(performance.now() - started);
      result.requests++;
      if (res.statusCode !== 200) result.errors++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return result;
}

function report(name: string, r: Result): void {
  const sorted = [...r.latenciesMs].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(2);
  console.log(
    `${name.padEnd(12)} ${(r.requests / SECONDS).toFixed(0).padStart(7)} req/s  ` + `p50 ${pct(50)} ms  p99 ${pct(99)} ms  errors ${r.errors}/${r.requests}`,
  );
}

async function main(): Promise<void> {
  const emulator = await startSeededEmulator();
  const pool = new Pool(emulator.url, { connections: CONNECTIONS, pipelining: 1 });
  try {
    console.log(`kasm-emulator benchmark: ${CONNECTIONS} connections, ${SECONDS} s per operation, 1,000 seeded users`);
    await load(pool, "/api/public/get_user", (n) => ({ target_user: { username: `user${n % 1000}` } })); // warm-up
    report("get_user", await load(pool, "/api/public/get_user", (n) => ({ target_user: { username: `user${n % 1000}` } })));
    report("create_user", await load(pool, "/api/public/create_user", (n) => ({ target_user: { username: `new${n}`, password: "pw" } })));
  } finally {
    await pool.close();
    emulator.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
