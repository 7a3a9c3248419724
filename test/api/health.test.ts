/**
 * waitForHealthy: polls the health endpoint with a doubling delay, bounded by a deadline, and
 * says how many attempts it made and why the last one failed.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HEALTH_DEFAULTS, KasmHealthCheckError, createKasmClient, type KasmClient } from "../../provider/api";
import { startLocalServer, type LocalServer } from "./local-server";

let server: LocalServer;
let client: KasmClient;
beforeEach(async () => {
  server = await startLocalServer();
  client = createKasmClient({ baseUrl: server.url, apiKey: "k", apiKeySecret: "health-secret-Lm3" }, {});
});
afterEach(async () => {
  await client.close();
  await server.close();
});

describe("waitForHealthy", () => {
  it("defaults to the API Server's health-check schedule (5 s doubling to 60 s)", () => {
    expect(HEALTH_DEFAULTS).toMatchObject({ initialDelayMs: 5000, maxDelayMs: 60_000, probeTimeoutMs: 5000 });
  });

  it("polls until the endpoint answers {ok: true}, doubling the delay", async () => {
    server.script(
      "__healthcheck",
      { status: 503, body: { ok: false } },
      { reset: true },
      { status: 200, raw: "starting" },
      { status: 200, body: { ok: true } },
    );
    const result = await client.waitForHealthy({ deadlineMs: 5000, initialDelayMs: 20, maxDelayMs: 50 });
    expect(result.attempts).toBe(4);
    const times = server.requests.map((r) => r.path);
    expect(times).toEqual(Array(4).fill("/api/__healthcheck"));
    // Waits of 20, 40 and 50 ms (capped): at least 110 ms in all.
    expect(result.elapsedMs).toBeGreaterThanOrEqual(100);
  });

  it("gives up at the deadline, naming the attempts and the last failure", async () => {
    server.fallback = () => ({ status: 503, body: { ok: false, reason: "database unreachable" } });
    const started = Date.now();
    const error = await client.waitForHealthy({ deadlineMs: 300, initialDelayMs: 40, maxDelayMs: 80 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(KasmHealthCheckError);
    const health = error as KasmHealthCheckError;
    expect(health.kind).toBe("unhealthy");
    expect(health.attempts).toBeGreaterThanOrEqual(4);
    expect(health.attempts).toBe(server.requests.length);
    expect(health.lastFailure).toContain("HTTP 503");
    expect(health.message).toMatch(new RegExp(`within \\d+ ms \\(${health.attempts} attempt\\(s\\)\\); last failure: HTTP 503`));
  });

  it("reports a refused connection as the last failure", async () => {
    await client.close();
    client = createKasmClient({ baseUrl: "http://127.0.0.1:9", apiKey: "k", apiKeySecret: "health-secret-Lm3" }, {});
    const error = (await client.waitForHealthy({ deadlineMs: 100, initialDelayMs: 30 }).catch((e: unknown) => e)) as KasmHealthCheckError;
    expect(error.lastFailure).toMatch(/^ECONNREFUSED/);
  });
});
