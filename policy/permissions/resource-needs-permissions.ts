/**
 * `resource-needs-permissions`: every Kasm resource of the stack can be created, read (refreshed),
 * updated and deleted with the pipeline's API key.
 *
 * For each resource it takes the calls its provider makes in each step from the shared table
 * (`permissions/kind-table.ts`), with their circumstances: system groups, users that hold
 * Global Admin (from the config, or made so by a GroupMembership or UserGroups of the same stack),
 * users with sessions, the target of an egress mapping or credential. It then judges the key
 * with the dependency rules: a permission held without its dependencies does not take effect.
 *
 * One violation per cause: a Read Only key is `read-only-key`'s to report, so this policy judges
 * the key's permissions alone, as if it were not Read Only. A Read Only key that also lacks
 * permissions gets one violation from each policy, each naming its own fix.
 *
 * A program that manages several installations (`kasm.Connection`) is judged per installation:
 * each resource against the key of its own connection (`connections.<name>` in the config; the
 * top level for the default one), and the links between resources only within one installation.
 * A resource whose connection the config does not describe is a violation that says what to add.
 *
 * A stack policy, not a resource policy: what one resource needs depends on the others (a user
 * the stack puts into Administrators needs Users Modify Admin for every later change), and only
 * a stack policy sees them all and how they are linked. Each violation is still reported against
 * its resource. In `pulumi preview` (the pull-request check) and in the preview `pulumi up` runs
 * first, a mandatory stack policy stops the run before anything changes; only with
 * `pulumi up --skip-preview` does it run after the changes.
 */
import { judgeNeeds, LIFECYCLE_STEPS, type CallShortfall, type LifecycleStep, type NeedsVerdict } from "../../permissions";
import { keyPolicy, parseInstallationKeys, parseKeyConfigWithPermissions, readPolicyConfig } from "./config";
import { analyseStack, byInstallation, type KasmEntry } from "./stack";
import { installationWords, kindOf, label, listWords, quoted, undecidable } from "../shared/kasm";

export const NAME = "resource-needs-permissions";

const PARTICIPLES: Record<LifecycleStep, string> = { create: "created", read: "read", update: "updated", delete: "deleted" };

/** One shortfall in words: `create calls add_user_group (for each listed group), which needs 'Groups Modify System'`. */
function describeShortfall(s: CallShortfall): string {
  const when = s.call.condition ? ` (${s.call.condition})` : "";
  const why = s.call.requirement.reasons.filter((r) => s.missing.some((p) => r.includes(p)));
  return `${s.step} calls ${s.call.operation}${when}, which needs ${quoted(s.missing)}${why.length ? ` (${why.join("; ")})` : ""}`;
}

/** The message for one resource the key cannot manage. */
export function shortfallMessage(entry: Pick<KasmEntry, "kind" | "name">, verdict: NeedsVerdict, connection?: string): string {
  const steps = LIFECYCLE_STEPS.filter((step) => verdict.shortfalls.some((s) => s.step === step));
  const grant = verdict.toGrant.length > 0 ? ` Grant the key: ${quoted(verdict.toGrant)}.` : "";
  const key = connection === undefined ? "this API key" : `the API key of connection '${connection}'`;
  return (
    `${label(entry.kind, entry.name)} cannot be ${listWords(steps.map((s) => PARTICIPLES[s]))} with ${key}: ` +
    `${verdict.shortfalls.map(describeShortfall).join("; ")}.${grant}`
  );
}

/** The `resource-needs-permissions` policy: the judgement above, on each Kasm resource, against its own installation's key. */
export const resourceNeedsPermissions = keyPolicy({
  name: NAME,
  description:
    "Every Kasm resource can be created, read, updated and deleted with the pipeline's API key (its permissions, " +
    "with Kasm's dependency rules and contextual permissions: system groups, users with Global Admin, users with sessions, egress targets).",
  enforcementLevel: "mandatory",
  severity: "high",
  remediationSteps: "Grant the key the permissions the message lists (closed under Kasm's dependency rules), or change the resource.",
  requiresPermissions: true,
  validateStack: (args, reportViolation) => {
    const raw = args.getConfig<Record<string, unknown>>();
    const keys = readPolicyConfig(NAME, reportViolation, () => parseInstallationKeys(NAME, raw, parseKeyConfigWithPermissions));
    if (keys === undefined) return;
    if (!args.resources.some((r) => kindOf(r))) args.notApplicable("the stack has no Kasm resources");
    // One installation at a time: its resources, judged against its own key.
    const undecided: string[] = [];
    const installations = byInstallation(args.resources);
    // A configured connection that no resource uses is most likely the missing one, misnamed.
    const unused = [...keys.named.keys()].filter((name) => !installations.has(name));
    const misnamed =
      unused.length > 0
        ? ` The config describes ${unused.map((n) => `connections.${n}`).join(", ")}, which no resource uses: is one of them meant for it?`
        : "";
    for (const [connection, resources] of installations) {
      const keyConfig = keys.of(connection);
      if (keyConfig === undefined) {
        for (const r of resources)
          reportViolation(
            `${label(kindOf(r)!, r.name)} lives in ${installationWords(connection)}, and the policy config describes no key for it: ` +
              `add "connections": {"${connection}": {"permissions": [...]}} with the permissions of that installation's API key.${misnamed}`,
            r.urn,
          );
        continue;
      }
      // Judged as if not Read Only: read-only-key reports that cause, once per resource.
      const key = { permissions: keyConfig.permissions, readOnly: false };
      for (const entry of analyseStack(resources, keyConfig).entries) {
        const verdict = judgeNeeds(key, entry.needs);
        if (verdict.shortfalls.length > 0) reportViolation(shortfallMessage(entry, verdict, connection), entry.urn);
        for (const u of verdict.undecided) {
          const needs = u.missing.length > 0 ? `needs ${quoted(u.missing)} if so` : "writes if so, and the key is Read Only";
          undecided.push(`${label(entry.kind, entry.name)}: ${u.step} (${u.call.operation}) ${needs}: could not decide ${u.fact}`);
        }
      }
    }
    if (undecided.length > 0) throw undecidable(`could not decide whether the API key can manage every Kasm resource: ${[...new Set(undecided)].join("; ")}`);
  },
});
