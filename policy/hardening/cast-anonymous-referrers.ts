/**
 * `cast-anonymous-referrers`: a casting link open to anonymous users only answers requests
 * referred by listed domains (`allowedReferrers`).
 *
 * Why: the referrer list is what ties an anonymous link to the page that embeds it; without it
 * the link works from anywhere it is pasted. `trustedDomains` also flags a referrer outside them
 * (`app.example.com` and `*.example.com` are within `example.com`).
 */
import { containsUnknown, flag, nonEmptyList, resourceRule, tri, verdict } from "./common";

/** Whether a referrer (`host`, `*.host`, `host:port`) lies within one of the trusted domains. */
export function withinDomains(referrer: string, domains: readonly string[]): boolean {
  const host = referrer.replace(/^\*\./, "").replace(/:\d+$/, "").toLowerCase();
  return domains.some((d) => {
    const domain = d.replace(/^\*\./, "").replace(/^\./, "").toLowerCase();
    return host === domain || host.endsWith(`.${domain}`);
  });
}

/** The `cast-anonymous-referrers` policy: the rule above, on each CastConfig. */
export const castAnonymousReferrers = resourceRule({
  name: "cast-anonymous-referrers",
  kind: "CastConfig",
  description: "A casting config that allows anonymous access lists allowedReferrers, the domains allowed to send users to the link.",
  severity: "medium",
  area: "casting",
  remediationSteps: "Set allowedReferrers to the domains of the pages that link to the casting URL.",
  config: {
    trustedDomains: {
      type: "array",
      items: { type: "string" },
      description: "Also flag an allowed referrer outside these domains (subdomains included).",
    },
  },
  check: (cast, config) => {
    const anonymous = flag(cast.allowAnonymous);
    const missing = verdict(
      tri.and(anonymous, tri.not(nonEmptyList(cast.allowedReferrers))),
      "allowAnonymous is true but allowedReferrers is empty: the anonymous link works from any page. List the referring domains.",
      "allowAnonymous or allowedReferrers is not known yet",
    );
    const trusted = Array.isArray(config.trustedDomains) ? (config.trustedDomains as string[]) : undefined;
    if (missing || !trusted || anonymous === false) return missing;
    if (anonymous === undefined || containsUnknown(cast.allowedReferrers)) return { undecided: "allowAnonymous or allowedReferrers is not known yet" };
    const outside = (cast.allowedReferrers as unknown[]).filter((r) => typeof r === "string" && !withinDomains(r, trusted)).length;
    return outside > 0 ? { violation: `${outside} allowed referrer(s) lie outside trustedDomains.` } : null;
  },
});
