/**
 * Waiting for a Kasm installation to become healthy: poll `GET {baseUrl}/api/__healthcheck`
 * until it answers `{ok: true}`, backing off the way the product's own health-check script does
 * for the API Server (retry_delay 5 s, doubling per consecutive failure up to max_delay 60 s).
 *
 * {@link HealthGates} is the `waitForHealthySeconds` setting: the transport waits on it before its
 * first request, once per base URL among the clients that share the gates (every client of one
 * connection registry: one host process's), so that a deployment against a Kasm still starting
 * waits instead of failing its first calls.
 */
import { DEFAULT_SETTING_NAMES, envVar, howToSet, settingRef, type SettingNames } from "./config";
// Not through the errors folder's index, which loads config.ts, which loads this file: see config.ts.
import { KasmHealthCheckError } from "./errors/connection";
import type { KasmApi } from "./transport";

/** Options of {@link waitForHealthy}. */
export interface WaitForHealthyOptions {
  /** Give up after this many milliseconds (counted from the call). Default: 300000 (5 minutes). */
  readonly deadlineMs?: number;
  /** The wait after the first failure; it doubles per consecutive failure. Default: 5000 (the API Server's retry_delay). */
  readonly initialDelayMs?: number;
  /** The longest wait between two probes. Default: 60000 (the API Server's max_delay). */
  readonly maxDelayMs?: number;
  /** How long one probe may take. Default: 5000 (the health check's fixed request timeout). */
  readonly probeTimeoutMs?: number;
  /** Stops waiting early (the promise rejects with the signal's reason). */
  readonly signal?: AbortSignal;
}

/** What {@link waitForHealthy} observed before the installation answered healthy. */
export interface HealthyResult {
  /** Probes sent, the successful one included. */
  readonly attempts: number;
  readonly elapsedMs: number;
}

/** The defaults of {@link WaitForHealthyOptions}. */
export const HEALTH_DEFAULTS = {
  deadlineMs: 300_000,
  initialDelayMs: 5_000,
  maxDelayMs: 60_000,
  probeTimeoutMs: 5_000,
} as const;

/**
 * Poll the health endpoint until it answers `{ok: true}`.
 *
 * @throws {@link KasmHealthCheckError} when the deadline passes first, naming the number of
 * attempts and the last failure.
 * @example
 * ```ts
 * await client.waitForHealthy({ deadlineMs: 120_000 });
 * ```
 */
export async function waitForHealthy(api: KasmApi, options: WaitForHealthyOptions = {}): Promise<HealthyResult> {
  const deadlineMs = options.deadlineMs ?? HEALTH_DEFAULTS.deadlineMs;
  const maxDelayMs = options.maxDelayMs ?? HEALTH_DEFAULTS.maxDelayMs;
  const probeTimeoutMs = options.probeTimeoutMs ?? HEALTH_DEFAULTS.probeTimeoutMs;
  let delayMs = Math.min(options.initialDelayMs ?? HEALTH_DEFAULTS.initialDelayMs, maxDelayMs);
  const started = Date.now();
  const elapsed = () => Date.now() - started;

  for (let attempts = 1; ; attempts += 1) {
    options.signal?.throwIfAborted();
    // A probe never runs past the deadline (but gets at least a moment to answer).
    const probe = await api.transport.probeHealth(Math.max(1, Math.min(probeTimeoutMs, deadlineMs - elapsed())));
    if (probe.healthy) {
      api.transport.healthGates.markHealthy(api.transport.baseUrl);
      return { attempts, elapsedMs: elapsed() };
    }
    const remaining = deadlineMs - elapsed();
    if (remaining <= 0) throw new KasmHealthCheckError(attempts, elapsed(), probe.detail);
    api.transport.log("debug", `healthcheck: attempt ${attempts} failed (${probe.detail}); next in ${Math.min(delayMs, remaining)} ms`);
    // The last wait ends at the deadline, so that a final probe is made then.
    await sleep(Math.min(delayMs, remaining), options.signal);
    delayMs = Math.min(delayMs * 2, maxDelayMs);
  }
}

/**
 * The health wait of the `waitForHealthySeconds` setting ran out: the message names the setting,
 * its environment variable and the way out.
 */
export class KasmHealthGateError extends KasmHealthCheckError {
  constructor(baseUrl: string, seconds: number, cause: KasmHealthCheckError, settings: SettingNames = DEFAULT_SETTING_NAMES) {
    super(cause.attempts ?? 1, seconds * 1000, cause.lastFailure);
    this.message =
      `Kasm at ${baseUrl} did not report healthy (GET /api/__healthcheck) within the ${seconds} s that ` +
      `${settingRef(settings, "waitForHealthySeconds")} (or ${envVar(settings, "waitForHealthySeconds")}) allows, after ${cause.attempts ?? 1} probe(s); ` +
      `last answer: ${cause.lastFailure}. Check that Kasm is running and reachable at that address (${howToSet(settings, "baseUrl")}), or raise the setting.`;
  }
}

/**
 * The health waits of the clients that share them: one per base URL, its outcome shared by every
 * request that follows. A connection registry (`ConnectionRegistry` in `provider/runtime.ts`) gives every client it
 * builds the same gates, so that a host process waits once per installation; a client built on
 * its own has gates of its own.
 */
export class HealthGates {
  /** One wait per base URL: its outcome. */
  readonly #gates = new Map<string, Promise<void>>();

  /**
   * Wait, once per base URL, until the installation reports healthy, for at most `seconds` (the
   * `waitForHealthySeconds` setting; 0 returns at once). Every request of every client sharing
   * these gates waits on the same outcome: a Kasm that became healthy is not probed again, and one
   * that did not fails each request at once with the same {@link KasmHealthGateError} rather than
   * waiting again.
   */
  wait(api: KasmApi, seconds: number): Promise<void> | undefined {
    if (seconds <= 0) return undefined;
    const key = api.transport.baseUrl;
    let gate = this.#gates.get(key);
    if (!gate) {
      gate = waitForHealthy(api, { deadlineMs: seconds * 1000 }).then(
        () => undefined,
        (error: unknown) => {
          throw error instanceof KasmHealthCheckError ? new KasmHealthGateError(key, seconds, error, api.transport.settingNames) : error;
        },
      );
      this.#gates.set(key, gate);
    }
    return gate;
  }

  /** Record that `baseUrl` answered healthy (an explicit wait succeeded): no gate waits for it again. */
  markHealthy(baseUrl: string): void {
    this.#gates.set(baseUrl, Promise.resolve());
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
