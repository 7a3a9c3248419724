/**
 * `staging-license-capacity`: the stack's staging configs together do not keep more sessions
 * staged than the license lets run at once.
 *
 * Staged sessions are running sessions: with the Community Edition (5 concurrent sessions) a
 * stack that stages 6 leaves no session for any user, and the staging itself cannot be met.
 * `license` says which license the target Kasm runs under (`community`: 5; `per-concurrent-session`
 * with `concurrentSessions`: that many; `per-named-user`: no session limit, the rule does not
 * apply). Without `license` the rule does not apply: the pack cannot ask Kasm. A program with
 * several installations (kasm.Connection) is counted per installation, each against its own
 * license (`connections.<name>.license`).
 */
import type { PolicyConfigSchema, StackValidationPolicy } from "@pulumi/policy";
import { COMMUNITY_CONCURRENT_SESSIONS } from "../../permissions/product";
import { EXEMPT_PROPERTY, isExempt, numberOf } from "./common";
import { connectionOf, label, undecidable } from "../shared/kasm";
import { inputsOf } from "../shared/inputs";

export const NAME = "staging-license-capacity";

/** Concurrent sessions of the Community Edition (the permission catalogue's product constant). */
export { COMMUNITY_CONCURRENT_SESSIONS };

/** The license properties: at the top level for the default installation, under `connections.<name>` for the others. */
const LICENSE_PROPERTIES: PolicyConfigSchema["properties"] = {
  license: {
    type: "string",
    enum: ["community", "per-concurrent-session", "per-named-user"],
    description: "The license model of the target Kasm.",
  },
  concurrentSessions: { type: "integer", minimum: 1, description: "With license per-concurrent-session: the licensed concurrent sessions." },
};

/** The concurrent sessions a license description allows, or undefined when it sets no limit (or says nothing). */
function capacityOf(license: Record<string, unknown> | undefined): number | undefined {
  if (license?.license === "community") return COMMUNITY_CONCURRENT_SESSIONS;
  if (license?.license === "per-concurrent-session" && typeof license.concurrentSessions === "number") return license.concurrentSessions;
  return undefined;
}

export const stagingLicenseCapacity: StackValidationPolicy = {
  name: NAME,
  description: "The stack's staging configs do not keep more sessions staged than the license allows to run at once (Community Edition: 5).",
  enforcementLevel: "advisory",
  severity: "medium",
  tags: ["kasm", "staging", "licensing"],
  remediationSteps: "Lower numSessions, or activate a license with more concurrent sessions (and say so in license/concurrentSessions).",
  configSchema: {
    properties: {
      ...EXEMPT_PROPERTY,
      ...LICENSE_PROPERTIES,
      connections: {
        type: "object",
        additionalProperties: { type: "object", properties: LICENSE_PROPERTIES, additionalProperties: false },
        description:
          "The license of each other installation, by connection name (the name given to kasm.Connection; for native kasm:index resources, " +
          'the resource name of their explicit provider): {"prod": {"license": "community"}}. ' +
          "The top level describes the default one (kasm:); an installation without a license here is not checked.",
      },
    },
  },
  validateStack: (args, reportViolation) => {
    const config = args.getConfig<Record<string, unknown>>();
    const connections = (config.connections ?? {}) as Record<string, Record<string, unknown>>;
    // Each installation has its own license and its own sessions: counted one installation at a time.
    const byConnection = new Map<string | undefined, { r: (typeof args.resources)[number]; sessions: number | null | undefined }[]>();
    for (const r of args.resources) {
      const inputs = inputsOf("StagingConfig", r);
      if (!inputs || isExempt(config, r.name)) continue;
      const connection = connectionOf(r);
      byConnection.set(connection, [...(byConnection.get(connection) ?? []), { r, sessions: numberOf(inputs.numSessions) }]);
    }
    if (byConnection.size === 0) args.notApplicable("the stack has no staging configs");
    const checked = [...byConnection].filter(([connection]) => capacityOf(connection === undefined ? config : connections[connection]) !== undefined);
    if (checked.length === 0)
      args.notApplicable("the config gives no license with a concurrent-session limit for the installations of the stack's staging configs");
    const unknownAll: string[] = [];
    for (const [connection, staging] of checked) {
      const license = connection === undefined ? config : connections[connection];
      const capacity = capacityOf(license)!;
      const total = staging.reduce((sum, s) => sum + (typeof s.sessions === "number" ? s.sessions : 0), 0);
      const unknown = staging.filter((s) => s.sessions === undefined);
      const where = connection === undefined ? "the stack's staging configs" : `the stack's staging configs of connection '${connection}'`;
      const limit =
        license.license === "community" ? `the Community Edition's ${capacity} concurrent sessions` : `the license's ${capacity} concurrent sessions`;
      if (total > capacity) {
        for (const s of staging) {
          if (typeof s.sessions !== "number" || s.sessions === 0) continue;
          reportViolation(
            `${label("StagingConfig", s.r.name)}: ${where} keep ${total} sessions staged${unknown.length ? " (or more)" : ""}, more than ${limit}; staged sessions count as running sessions.`,
            s.r.urn,
          );
        }
      } else unknownAll.push(...unknown.map((s) => label("StagingConfig", s.r.name)));
    }
    if (unknownAll.length > 0) throw undecidable(`could not decide: numSessions of ${unknownAll.join(", ")} is not known yet`);
  },
};
