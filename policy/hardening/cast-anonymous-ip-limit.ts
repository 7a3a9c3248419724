/**
 * `cast-anonymous-ip-limit`: a casting link open to anonymous users limits the sessions each
 * source IP may start (`limitIps`, with `ipRequestLimit` per `ipRequestSeconds`).
 *
 * Why: with `allowAnonymous` anyone with the URL gets a new session, and an anonymous user, per
 * request; without a per-IP limit one client can start sessions until the deployment's capacity
 * (or its licence) is used up. `maxRequestsPerHour` also flags a limit looser than that rate.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { EXEMPT_PROPERTY, flag, forKind, numberOf, tri, verdict } from "./common";

export const NAME = "cast-anonymous-ip-limit";

export const castAnonymousIpLimit: ResourceValidationPolicy = {
  name: NAME,
  description: "A casting config that allows anonymous access limits sessions per source IP (limitIps).",
  enforcementLevel: "advisory",
  severity: "high",
  tags: ["kasm", "casting", "hardening"],
  remediationSteps: "Set limitIps: true with ipRequestLimit and ipRequestSeconds (and errorUrl for a friendly refusal).",
  configSchema: {
    properties: {
      ...EXEMPT_PROPERTY,
      maxRequestsPerHour: {
        type: "number",
        minimum: 1,
        description: "Also flag a per-IP limit that allows more sessions per hour than this (ipRequestLimit * 3600 / ipRequestSeconds).",
      },
    },
  },
  validateResource: forKind("CastConfig", (props, config) => {
    const anonymous = flag(props, "allowAnonymous");
    const limited = flag(props, "limitIps");
    const missing = verdict(
      tri.and(anonymous, tri.not(limited)),
      "allowAnonymous is true but limitIps is not: one client can start anonymous sessions without limit. Set limitIps with ipRequestLimit and ipRequestSeconds.",
      "allowAnonymous or limitIps is not known yet",
    );
    if (missing || typeof config.maxRequestsPerHour !== "number" || anonymous === false) return missing;
    const limit = numberOf(props, "ipRequestLimit");
    const seconds = numberOf(props, "ipRequestSeconds");
    if (limit === undefined || seconds === undefined || anonymous === undefined || limited === undefined)
      return { undecided: "allowAnonymous, ipRequestLimit or ipRequestSeconds is not known yet" };
    if (limit === null || seconds === null || seconds <= 0) return null;
    const perHour = (limit * 3600) / seconds;
    return perHour > config.maxRequestsPerHour
      ? { violation: `the per-IP limit allows ${Math.round(perHour)} anonymous sessions per hour, more than maxRequestsPerHour (${config.maxRequestsPerHour}).` }
      : null;
  }),
};
