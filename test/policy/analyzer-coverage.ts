/**
 * Every registered policy is exercised through @pulumi/policy's real analyzer machinery: each
 * pack's analyzer test gives one scenario per policy (the resources and the config under which it
 * reports), and {@link everyPolicyThroughTheAnalyzer} fails for a policy of the registry without
 * a scenario, for a scenario of no registered policy, and for a scenario whose policy stays silent.
 */
import { describe, expect, it } from "vitest";
import type { PolicyEntry } from "../../policy/shared/registry";
import type { AnalyzerDriver, Diagnostic, Level } from "./analyzer-client";
import type { FixtureResource } from "./helpers";

/** The resources and the pack config under which one policy reports (a violation or a "could not decide"). */
export interface Scenario {
  /** The pack's config, as `AnalyzerDriver.configure` takes it; `{}` when left out. */
  readonly config?: Record<string, { enforcementLevel?: Level } & Record<string, unknown>>;
  /** A resource policy is run on each of them, a stack policy on all of them together. */
  readonly resources: readonly FixtureResource[];
}

/**
 * The tests that every policy of `registry` has a scenario and reports through the analyzer
 * `driver()` serves (the pack must be served by the time the tests run).
 */
export function everyPolicyThroughTheAnalyzer(
  driver: () => AnalyzerDriver,
  registry: readonly PolicyEntry[],
  scenarios: Readonly<Record<string, Scenario>>,
): void {
  describe("every registered policy, through the analyzer", () => {
    it("has a scenario, and every scenario is of a registered policy", () => {
      const registered = registry.map((entry) => entry.name);
      for (const name of registered) expect(scenarios[name], `registered policy '${name}' has no analyzer scenario`).toBeDefined();
      for (const name of Object.keys(scenarios)) expect(registered, `scenario '${name}' is of no registered policy`).toContain(name);
    });

    it.each(registry.filter((entry) => scenarios[entry.name]))("$name reports", async (entry) => {
      const scenario = scenarios[entry.name];
      await driver().configure(scenario.config ?? {});
      const diagnostics: Diagnostic[] =
        entry.scope === "stack"
          ? await driver().analyzeStack(scenario.resources)
          : (await Promise.all(scenario.resources.map((r) => driver().analyze(r)))).flat();
      expect(diagnostics.map((d) => d.policy)).toContain(entry.name);
    });
  });
}
