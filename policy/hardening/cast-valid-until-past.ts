/**
 * `cast-valid-until-past` (mandatory): a casting config's `validUntil` is not already past.
 *
 * Why: after `validUntil` the link only answers with an error, so a config that is past when it
 * is applied is a mistake (a date typed wrong, or a copy of an old config). `minRemainingHours`
 * also flags one that ends sooner than that.
 */
import { isUnknownValue, parseUtc, resourceRule } from "./common";

/** The `cast-valid-until-past` policy: the rule above, on each CastConfig. */
export const castValidUntilPast = resourceRule({
  name: "cast-valid-until-past",
  kind: "CastConfig",
  description: "A casting config's validUntil ('YYYY-MM-DD HH:MM:SS', UTC) is in the future: after it the link only answers with an error.",
  enforcementLevel: "mandatory",
  severity: "medium",
  area: "casting",
  remediationSteps: "Set validUntil to a future UTC time, or leave it out.",
  config: {
    minRemainingHours: { type: "number", minimum: 0, default: 0, description: "Also flag a validUntil less than this many hours ahead." },
  },
  check: (cast, config) => {
    const value = cast.validUntil;
    if (value === undefined || value === null) return null;
    if (isUnknownValue(value)) return { undecided: "validUntil is not known yet" };
    const until = parseUtc(value);
    if (!until) return null; // the provider's check refuses a malformed value
    const hours = typeof config.minRemainingHours === "number" ? config.minRemainingHours : 0;
    if (until.getTime() <= Date.now())
      return { violation: "validUntil is already past: the casting link would only answer with an error. Set a future UTC time." };
    if (until.getTime() < Date.now() + hours * 3_600_000) return { violation: `validUntil is less than minRemainingHours (${hours}) hours ahead.` };
    return null;
  },
});
