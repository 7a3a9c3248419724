/**
 * A vitest reporter that ends a run without a `pulumi` CLI on PATH with one line saying how many
 * of the CLI scenarios (the tests under test/cli/) were not run, and how to get a CLI.
 */
import type { Reporter, TestModule } from "vitest/node";
import { hasPulumi } from "./pulumi-cli";

export default class CliScenariosNotRun implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    if (hasPulumi) return;
    let notRun = 0;
    for (const module of testModules) {
      if (!module.moduleId.includes("/test/cli/")) continue;
      for (const test of module.children.allTests()) if (test.result().state === "skipped") notRun++;
    }
    if (notRun > 0) {
      console.log(`pulumi CLI not on PATH: ${notRun} CLI scenarios not run (bash scripts/pulumi-cli/build.sh builds one and prints its folder for PATH)`);
    }
  }
}
