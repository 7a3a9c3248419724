/**
 * `anonymous-data-transfer`: anonymous users cannot move data into a session: no clipboard from
 * their computer to the session (`allowWsClipboardUp`) and no uploads (`allowWsUploads`).
 *
 * Two places grant it. A casting config that allows anonymous access (its `allowWs*` flags apply
 * when `enforceClientSettings` is true). And a staging config of the same image: staged sessions
 * are what casting links hand out, so the staging config's flags reach the anonymous users too.
 * A stack policy, because a staging config is only a problem next to an anonymous casting config
 * of its image. `flags` chooses what counts (any of the six `allowWs*` data flags).
 *
 * Why: an anonymous user is not accountable; anything they paste or upload into the session (and
 * so into what it can reach) is untraceable.
 */
import type { StackValidationPolicy } from "@pulumi/policy";
import { EXEMPT_PROPERTY, flag, isExempt, tri, type Tri } from "./common";
import { referenceKey } from "../../permissions";
import { isUnknownValue, label, undecidable } from "../shared/kasm";
import { inputsOf, type PolicyInputs } from "../shared/inputs";

export const NAME = "anonymous-data-transfer";

/** The `allowWs*` flags that move data, which casting and staging configs both declare. */
const DATA_FLAGS = ["allowWsClipboardUp", "allowWsUploads", "allowWsClipboardDown", "allowWsDownloads", "allowWsAudio", "allowWsMicrophone"] as const;
type DataFlag = (typeof DATA_FLAGS)[number];
const DEFAULT_FLAGS: readonly DataFlag[] = ["allowWsClipboardUp", "allowWsUploads"];

/** A casting or staging config of the stack, with the resources its imageId comes from. */
type Entry = { readonly name: string; readonly urn: string; readonly imageFrom: readonly string[] } & (
  | { readonly kind: "CastConfig"; readonly props: PolicyInputs<"CastConfig"> }
  | { readonly kind: "StagingConfig"; readonly props: PolicyInputs<"StagingConfig"> }
);

/** Whether two resources name the same image: by id, or (ids not known yet) by coming from the same resource. */
function sameImage(a: Entry, b: Entry): Tri {
  const x = a.props.imageId;
  const y = b.props.imageId;
  const known = (v: unknown) => typeof v === "string" && !isUnknownValue(v);
  if (known(x) && known(y)) return referenceKey(x) === referenceKey(y);
  if (a.imageFrom.some((urn) => b.imageFrom.includes(urn))) return true;
  return undefined;
}

export const anonymousDataTransfer: StackValidationPolicy = {
  name: NAME,
  description:
    "Anonymous users cannot paste or upload into sessions: no allowWsClipboardUp or allowWsUploads on anonymous casting configs, " +
    "nor on the staging configs of their images.",
  enforcementLevel: "advisory",
  severity: "high",
  tags: ["kasm", "casting", "staging", "hardening"],
  remediationSteps: "Set the flags to false on the casting config (with enforceClientSettings: true) and on the staging configs of its image.",
  configSchema: {
    properties: {
      ...EXEMPT_PROPERTY,
      flags: {
        type: "array",
        items: { type: "string", enum: [...DATA_FLAGS] },
        default: [...DEFAULT_FLAGS],
        description: "The allowWs* flags anonymous users must not get.",
      },
    },
  },
  validateStack: (args, reportViolation) => {
    const config = args.getConfig<Record<string, unknown>>();
    const flags = Array.isArray(config.flags) ? (config.flags as DataFlag[]) : DEFAULT_FLAGS;
    const entries: Entry[] = args.resources.flatMap((r): Entry[] => {
      const about = { name: r.name, urn: r.urn, imageFrom: (r.propertyDependencies?.imageId ?? []).map((d) => d.urn) };
      const cast = inputsOf("CastConfig", r);
      if (cast) return [{ ...about, kind: "CastConfig", props: cast }];
      const staging = inputsOf("StagingConfig", r);
      return staging ? [{ ...about, kind: "StagingConfig", props: staging }] : [];
    });
    if (entries.length === 0) args.notApplicable("the stack has no casting or staging configs");
    const grants = (e: Entry) => tri.or(...flags.map((f) => flag(e.props[f])));
    const onFlags = (e: Entry) => flags.filter((f) => flag(e.props[f]) === true);
    /** `allowWsUploads lets` / `allowWsClipboardUp and allowWsUploads let`. */
    const on = (e: Entry, one: string, many: string) => {
      const names = onFlags(e);
      return `${names.join(" and ")} ${names.length > 1 ? many : one}`;
    };
    const anonymousCasts = entries.filter((e) => e.kind === "CastConfig" && flag(e.props.allowAnonymous) !== false);
    const undecided: string[] = [];
    for (const e of entries) {
      if (isExempt(config, e.name)) continue;
      if (e.kind === "CastConfig") {
        const anonymous = flag(e.props.allowAnonymous);
        const result = tri.and(anonymous, grants(e));
        if (result === true) {
          const enforced =
            flag(e.props.enforceClientSettings) === true
              ? ""
              : " (they apply once enforceClientSettings is true; until then the groups' client settings decide)";
          reportViolation(
            `${label(e.kind, e.name)}: allowAnonymous is true and ${on(e, "lets", "let")} anonymous users move data into the session${enforced}. Turn ${onFlags(e).length > 1 ? "them" : "it"} off.`,
            e.urn,
          );
        } else if (result === undefined) undecided.push(`${label(e.kind, e.name)}: allowAnonymous or the allowWs* flags are not known yet`);
        continue;
      }
      const backing = anonymousCasts.map((c) => ({ c, backs: tri.and(c.kind === "CastConfig" ? flag(c.props.allowAnonymous) : false, sameImage(c, e)) }));
      const result = tri.and(grants(e), tri.or(...backing.map((b) => b.backs)));
      if (result === true) {
        const casts = backing
          .filter((b) => b.backs === true)
          .map((b) => `'${b.c.name}'`)
          .join(", ");
        reportViolation(
          `${label(e.kind, e.name)}: ${on(e, "reaches", "reach")} anonymous users, because its staged sessions back the anonymous casting config(s) ${casts} of the same image. Turn ${onFlags(e).length > 1 ? "them" : "it"} off.`,
          e.urn,
        );
      } else if (result === undefined)
        undecided.push(`${label(e.kind, e.name)}: its flags, its image, or whether an anonymous casting config uses that image is not known yet`);
    }
    if (undecided.length > 0) throw undecidable(`could not decide: ${undecided.join("; ")}`);
  },
};
