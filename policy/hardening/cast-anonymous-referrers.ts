/**
 * `cast-anonymous-referrers`: a casting link open to anonymous users only answers requests
 * referred by listed domains (`allowedReferrers`).
 *
 * Why: the referrer list is what ties an anonymous link to the page that embeds it; without it
 * the link works from anywhere it is pasted. `trustedDomains` also flags a referrer outside them
 * (`app.example.com` and `*.example.com` are within `example.com`).
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { EXEMPT_PROPERTY, flag, forKind, nonEmptyList, tri, verdict } from "./common";
import { containsUnknown } from "../shared/kasm";

export const NAME = "cast-anonymous-referrers";

/** Whether a referrer (`host`, `*.host`, `host:port`) lies within one of the trusted domains. */
export function withinDomains(referrer: string, domains: readonly string[]): boolean {
  const host = referrer.replace(/^\*\./, "").replace(/:\d+$/, "").toLowerCase();
  return domains.some((d) => {
    const domain = d.replace(/^\*\./, "").replace(/^\./, "").toLowerCase();
    return host === domain || host.endsWith(`.${domain}`);
  });
}

export const castAnonymousReferrers: ResourceValidationPolicy = {
  name: NAME,
  description: "A casting config that allows anonymous access lists allowedReferrers, the domains allowed to send users to the link.",
  enforcementLevel: "advisory",
  severity: "medium",
  tags: ["kasm", "casting", "hardening"],
  remediationSteps: "Set allowedReferrers to the domains of the pages that link to the casting URL.",
  configSchema: {
    properties: {
      ...EXEMPT_PROPERTY,
      trustedDomains: {
        type: "array",
        items: { type: "string" },
        description: "Also flag an allowed referrer outside these domains (subdomains included).",
      },
    },
  },
  validateResource: forKind("CastConfig", (props, config) => {
    const anonymous = flag(props, "allowAnonymous");
    const missing = verdict(
      tri.and(anonymous, tri.not(nonEmptyList(props, "allowedReferrers"))),
      "allowAnonymous is true but allowedReferrers is empty: the anonymous link works from any page. List the referring domains.",
      "allowAnonymous or allowedReferrers is not known yet",
    );
    const trusted = Array.isArray(config.trustedDomains) ? (config.trustedDomains as string[]) : undefined;
    if (missing || !trusted || anonymous === false) return missing;
    if (anonymous === undefined || containsUnknown(props.allowedReferrers)) return { undecided: "allowAnonymous or allowedReferrers is not known yet" };
    const outside = (props.allowedReferrers as unknown[]).filter((r) => typeof r === "string" && !withinDomains(r, trusted)).length;
    return outside > 0 ? { violation: `${outside} allowed referrer(s) lie outside trustedDomains.` } : null;
  }),
};
