/**
 * Fault injection for resilience tests: reproducible failures of public operations.
 *
 * `POST /__emulator/faults` sets a rate, the kinds of fault, the operations they apply to and a
 * seed. Each call to a covered operation draws from a seeded generator whether it fails, how, and
 * whether the failure comes before the operation runs or after it committed (both happen in real
 * life: a proxy that times out after the API server wrote the row is the case that makes blind
 * retries of creates dangerous). The response header `x-emulator-fault` says which.
 */
import seedrandom from "seedrandom";
import { z } from "zod";
import { isOperationName } from "../permissions";

/** The kinds of fault: an HTTP status, a reset connection, or added latency. */
export const FAULT_KINDS = ["500", "503", "429", "reset", "latency"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The body of `POST /__emulator/faults`. */
export const FaultConfig = z.object({
  rate: z.number().min(0).max(1),
  kinds: z.array(z.enum(FAULT_KINDS)).min(1).default(["500", "503", "429", "reset"]),
  operations: z.array(z.string().refine(isOperationName, { error: (i) => `unknown operation ${JSON.stringify(i.input)}` })).optional(),
  latencyMs: z.number().int().min(0).max(60_000).default(200),
  seed: z.union([z.number(), z.string()]).default(1),
  /** Where a fault lands: before the operation runs, after it committed, or either (drawn per fault). */
  phase: z.enum(["before", "after", "either"]).default("either"),
});
export type FaultConfig = z.infer<typeof FaultConfig>;

/** One decided fault. */
export interface Fault {
  readonly kind: FaultKind;
  readonly phase: "before" | "after";
  readonly latencyMs: number;
}

/** The fault injector of one emulator. */
export class Faults {
  private config?: FaultConfig;
  private random: () => number = Math.random;
  /** How many faults were injected since the last configuration, by kind and phase. */
  injected: Record<string, number> = {};

  configure(config: FaultConfig): void {
    this.config = config;
    // Alea rather than the default ARC4: ARC4 repeats its key, so seeds "1" and "11" would draw alike.
    this.random = seedrandom.alea(String(config.seed));
    this.injected = {};
  }

  clear(): void {
    this.config = undefined;
  }

  /** The current configuration and counts, for `GET /__emulator/faults`. */
  describe() {
    return { config: this.config ?? null, injected: { ...this.injected } };
  }

  /** Draw whether this call of `operation` fails, and how. */
  decide(operation: string): Fault | undefined {
    const config = this.config;
    if (!config || (config.operations && !(config.operations as string[]).includes(operation))) return undefined;
    if (this.random() >= config.rate) return undefined;
    const kind = config.kinds[Math.floor(this.random() * config.kinds.length)];
    // Latency always comes before the operation runs; only the failures have a phase to draw.
    const phase = kind === "latency" ? "before" : config.phase === "either" ? (this.random() < 0.5 ? "before" : "after") : config.phase;
    const label = `${kind}:${phase}`;
    this.injected[label] = (this.injected[label] ?? 0) + 1;
    return { kind, phase, latencyMs: config.latencyMs };
  }
}
