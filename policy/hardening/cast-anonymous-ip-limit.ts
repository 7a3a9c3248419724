/**
 * `cast-anonymous-ip-limit`: a casting link open to anonymous users limits the sessions each
 * source IP may start (`limitIps`, with `ipRequestLimit` per `ipRequestSeconds`).
 *
 * Why: with `allowAnonymous` anyone with the URL gets a new session, and an anonymous user, per
 * request; without a per-IP limit one client can start sessions until the deployment's capacity
 * (or its license) is used up. `maxRequestsPerHour` also flags a limit looser than that rate.
 */
import { flag, numberOf, resourceRule, tri, verdict } from "./common";

/** The `cast-anonymous-ip-limit` policy: the rule above, on each CastConfig. */
export const castAnonymousIpLimit = resourceRule({
  name: "cast-anonymous-ip-limit",
  kind: "CastConfig",
  description: "A casting config that allows anonymous access limits sessions per source IP (limitIps).",
  severity: "high",
  area: "casting",
  remediationSteps: "Set limitIps: true with ipRequestLimit and ipRequestSeconds (and errorUrl for a friendly refusal).",
  config: {
    maxRequestsPerHour: {
      type: "number",
      minimum: 1,
      description: "Also flag a per-IP limit that allows more sessions per hour than this (ipRequestLimit * 3600 / ipRequestSeconds).",
    },
  },
  check: (cast, config) => {
    const anonymous = flag(cast.allowAnonymous);
    const limited = flag(cast.limitIps);
    const missing = verdict(
      tri.and(anonymous, tri.not(limited)),
      "allowAnonymous is true but limitIps is not: one client can start anonymous sessions without limit. Set limitIps with ipRequestLimit and ipRequestSeconds.",
      "allowAnonymous or limitIps is not known yet",
    );
    if (missing || typeof config.maxRequestsPerHour !== "number" || anonymous === false) return missing;
    const limit = numberOf(cast.ipRequestLimit);
    const seconds = numberOf(cast.ipRequestSeconds);
    if (limit === undefined || seconds === undefined || anonymous === undefined || limited === undefined)
      return { undecided: "allowAnonymous, ipRequestLimit or ipRequestSeconds is not known yet" };
    if (limit === null || seconds === null || seconds <= 0) return null;
    const perHour = (limit * 3600) / seconds;
    return perHour > config.maxRequestsPerHour
      ? {
          violation: `the per-IP limit allows ${Math.round(perHour)} anonymous sessions per hour, more than maxRequestsPerHour (${config.maxRequestsPerHour}).`,
        }
      : null;
  },
});
