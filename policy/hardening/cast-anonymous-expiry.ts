/**
 * `cast-anonymous-expiry`: a casting link open to anonymous users has an end (`validUntil`).
 *
 * Why: an anonymous link works for anyone who has the URL; without `validUntil` it works until
 * someone remembers to delete it. `maxValidDays` also flags an end further away than that.
 */
import { flag, isSet, isUnknownValue, parseUtc, resourceRule, tri, verdict } from "./common";

/** The `cast-anonymous-expiry` policy: the rule above, on each CastConfig. */
export const castAnonymousExpiry = resourceRule({
  name: "cast-anonymous-expiry",
  kind: "CastConfig",
  description: "A casting config that allows anonymous access sets validUntil, so the link stops working on its own.",
  severity: "medium",
  area: "casting",
  remediationSteps: "Set validUntil ('YYYY-MM-DD HH:MM:SS', UTC) on the casting config.",
  config: {
    maxValidDays: { type: "number", minimum: 1, description: "Also flag a validUntil more than this many days ahead." },
  },
  check: (cast, config) => {
    const anonymous = flag(cast.allowAnonymous);
    const missing = verdict(
      tri.and(anonymous, tri.not(isSet(cast.validUntil))),
      "allowAnonymous is true but validUntil is not set: the anonymous link never expires. Set validUntil.",
      "allowAnonymous or validUntil is not known yet",
    );
    if (missing || typeof config.maxValidDays !== "number" || anonymous === false) return missing;
    if (anonymous === undefined || isUnknownValue(cast.validUntil)) return { undecided: "allowAnonymous or validUntil is not known yet" };
    const until = parseUtc(cast.validUntil);
    if (!until) return null;
    const days = (until.getTime() - Date.now()) / 86_400_000;
    return days > config.maxValidDays ? { violation: `validUntil is more than maxValidDays (${config.maxValidDays}) days ahead.` } : null;
  },
});
