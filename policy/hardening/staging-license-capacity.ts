/**
 * `staging-license-capacity`: the stack's staging configs together do not keep more sessions
 * staged than the licence lets run at once.
 *
 * Staged sessions are running sessions: with the Community Edition (5 concurrent sessions) a
 * stack that stages 6 leaves no session for any user, and the staging itself cannot be met.
 * `license` says which licence the target Kasm runs under (`community`: 5; `per-concurrent-session`
 * with `concurrentSessions`: that many; `per-named-user`: no session limit, the rule does not
 * apply). Without `license` the rule does not apply: the pack cannot ask Kasm.
 */
import type { StackValidationPolicy } from "@pulumi/policy";
import { COMMUNITY_CONCURRENT_SESSIONS } from "../../catalogue/product";
import { EXEMPT_PROPERTY, isExempt, numberOf } from "./common";
import { label, undecidable } from "../shared/kasm";
import { inputsOf } from "../shared/inputs";

export const NAME = "staging-license-capacity";

/** Concurrent sessions of the Community Edition (the catalogue's product constant). */
export { COMMUNITY_CONCURRENT_SESSIONS };

export const stagingLicenseCapacity: StackValidationPolicy = {
  name: NAME,
  description: "The stack's staging configs do not keep more sessions staged than the licence allows to run at once (Community Edition: 5).",
  enforcementLevel: "advisory",
  severity: "medium",
  tags: ["kasm", "staging", "licensing"],
  remediationSteps: "Lower numSessions, or activate a licence with more concurrent sessions (and say so in license/concurrentSessions).",
  configSchema: {
    properties: {
      ...EXEMPT_PROPERTY,
      license: {
        type: "string",
        enum: ["community", "per-concurrent-session", "per-named-user"],
        description: "The licence model of the target Kasm.",
      },
      concurrentSessions: { type: "integer", minimum: 1, description: "With license per-concurrent-session: the licensed concurrent sessions." },
    },
  },
  validateStack: (args, reportViolation) => {
    const config = args.getConfig<Record<string, unknown>>();
    const capacity =
      config.license === "community"
        ? COMMUNITY_CONCURRENT_SESSIONS
        : config.license === "per-concurrent-session" && typeof config.concurrentSessions === "number"
          ? config.concurrentSessions
          : undefined;
    if (capacity === undefined) args.notApplicable("the config gives no licence with a concurrent-session limit");
    const staging = args.resources.flatMap((r) => {
      const inputs = inputsOf("StagingConfig", r);
      return inputs && !isExempt(config, r.name) ? [{ r, sessions: numberOf(inputs.numSessions) }] : [];
    });
    if (staging.length === 0) args.notApplicable("the stack has no staging configs");
    const total = staging.reduce((sum, s) => sum + (typeof s.sessions === "number" ? s.sessions : 0), 0);
    const unknown = staging.filter((s) => s.sessions === undefined);
    const limit = config.license === "community" ? `the Community Edition's ${capacity} concurrent sessions` : `the licence's ${capacity} concurrent sessions`;
    if (total > capacity!) {
      for (const s of staging) {
        if (typeof s.sessions !== "number" || s.sessions === 0) continue;
        reportViolation(
          `${label("StagingConfig", s.r.name)}: the stack's staging configs keep ${total} sessions staged${unknown.length ? " (or more)" : ""}, more than ${limit}; staged sessions count as running sessions.`,
          s.r.urn,
        );
      }
    } else if (unknown.length > 0) {
      throw undecidable(`could not decide: numSessions of ${unknown.map((s) => label("StagingConfig", s.r.name)).join(", ")} is not known yet`);
    }
  },
};
