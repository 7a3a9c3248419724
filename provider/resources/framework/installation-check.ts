/**
 * One read of each installation before a change to it is planned: so that `pulumi preview` in a
 * pull request fails on what it could have seen, instead of the `up` failing after other
 * resources were applied.
 *
 * The read finds wrong credentials (401), an unreachable or wrong address, a health wait that runs
 * out, and the wrong vocabulary (`apiNames`): it asks for an operation whose name only the
 * configured vocabulary has, so an installation that speaks the other one answers 404, which the
 * client reports as a vocabulary mismatch naming the connection's setting. With the product
 * vocabulary that read is `get_groups`, whose answer also gives `UserSet` the group names to check
 * its rows against; with the documentation's vocabulary it is `get_ws_status` with no session,
 * which a Kasm that speaks it refuses with 400 (unknown session) and changes nothing.
 *
 * It is made at most once per installation per deployment (per host process), only from `check`
 * of a resource whose inputs change (a create, or an update): a preview without change sends no
 * request. It is never a write. An answer that shows nothing wrong with the settings (the key
 * lacks the permission for the read, a 5xx, a 400) counts as a pass: the permissions pack judges
 * permissions, and a passing check must never block an `up` that would work.
 *
 * `kasm:checkBeforeChanges` (or `KASM_CHECK_BEFORE_CHANGES`; a named connection's own
 * `kasm-<name>:checkBeforeChanges`) set to `false` turns it off: the preview then sends nothing.
 */
import { KasmAuthenticationError } from "../../api/errors/answers";
import { KasmConfigurationError } from "../../api/errors/base";
import { KasmHealthCheckError, KasmTransportError } from "../../api/errors/connection";
import { KasmMissingOperationError, KasmUnknownPathError, KasmVocabularyError } from "../../api/errors/vocabulary";
import type { GroupRecord } from "../../api/schemas/groups";
import { howToSet, type SettingNames } from "../../api/config";
import { WsStatus } from "../../api/schemas/sessions";
import type { KindContext } from "./types";

/** What the one read of an installation showed. */
export interface InstallationSurvey {
  /** The installation's groups, when its vocabulary can list them (the product's); else undefined. */
  readonly groups?: readonly GroupRecord[];
}

/** The settings' errors: what the read is for. Any other outcome passes. */
const SETTINGS_ERRORS = [
  KasmConfigurationError,
  KasmAuthenticationError,
  KasmTransportError,
  KasmHealthCheckError,
  KasmMissingOperationError,
  KasmUnknownPathError,
  KasmVocabularyError,
];

/**
 * The survey of the current connection's installation: read once per process (the host's
 * runtime remembers it, see `InstallationMemory`), then shared.
 * Rejects with the client's error when the read shows the settings are wrong. Undefined when
 * `checkBeforeChanges` is off.
 */
export function surveyInstallation(context: KindContext): Promise<InstallationSurvey> | undefined {
  if (!checksBeforeChanges(context)) return undefined;
  const memory = context.memory();
  if (memory.survey === undefined) {
    memory.survey = readInstallation(context);
    // Not awaited here: a caller that never looks must not leave a rejection unhandled.
    memory.survey.catch(() => undefined);
  }
  return memory.survey;
}

/**
 * Why the current connection's installation cannot take a change, in words for a check failure,
 * or undefined when its one read showed nothing wrong (or checks are off).
 */
export async function installationProblem(context: KindContext): Promise<string | undefined> {
  try {
    await surveyInstallation(context);
    return undefined;
  } catch (error) {
    return describe(error, context.settingNames);
  }
}

/**
 * Whether a change to the connection's installation is checked with reads first: its
 * `checkBeforeChanges` setting, on unless `false`.
 */
export function checksBeforeChanges(context: KindContext): boolean {
  return context.setting("checkBeforeChanges")?.trim().toLowerCase() !== "false";
}

/** The one read (see the module comment). */
async function readInstallation(context: KindContext): Promise<InstallationSurvey> {
  const client = context.client();
  try {
    // The listing the checks before Group creates share: their lookups cost nothing more.
    if (client.transport.supports("get_groups")) return { groups: await client.keys.groups() };
    // No session has an empty id: a Kasm that speaks the documentation's names refuses it (400).
    await client.transport.call("get_ws_status", {}, WsStatus);
    return {};
  } catch (error) {
    if (SETTINGS_ERRORS.some((type) => error instanceof type)) throw error;
    return {};
  }
}

/** The failure's words: what the read found, and how to plan without it. */
function describe(error: unknown, names: SettingNames): string {
  const message = error instanceof Error ? error.message : String(error);
  const where =
    names.provider !== undefined
      ? `the installation of provider \`${names.provider}\``
      : names.connection === undefined
        ? "the installation `kasm:` configures"
        : `the installation of connection "${names.connection}"`;
  return (
    `before planning this change, one read of ${where} failed, so nothing would apply there: ${message} ` +
    `(This read is made once per installation and deployment; ${howToSet(names, "checkBeforeChanges", "false")} turns it off.)`
  );
}

/** How long a lookup that found no object stands for the create that follows it: as long as a refresh's snapshot of users serves. */
export const ABSENCE_STANDS_MS = 30_000;

/** An absence's key in the connection's `InstallationMemory.absences`. */
const absenceKey = (kind: string, key: string) => JSON.stringify([kind, key]);

/**
 * The lookups by natural key that check shares with the create after it. The keys `check` looked
 * up and found no object for are remembered, by kind and key, with when, in the connection's
 * `InstallationMemory.absences` (the host's runtime keeps it): the create that follows in the same
 * process (an `up`) does not look the key up again, so that reading before a change costs a
 * create no request more. The create's own lookup exists to keep the client's recovery after a
 * server error from taking an object made outside Pulumi for its own (`findFirst`); an object
 * made in the seconds between the check's lookup and the create is as unlikely as one made
 * between that lookup and the create, and Kasm refuses a duplicate create either way. A key is
 * forgotten once its create uses it, or after {@link ABSENCE_STANDS_MS}.
 */
export const lookups = {
  /**
   * When a lookup about to be asked reads Kasm, at the latest: now, or, when the answer may come
   * from a listing the deployment's lookups share (key-lookups.ts), when the
   * oldest of them was read. A finding counts from then, so that an absence read from a listing
   * stands no longer than one read by a lookup of its own.
   */
  askedAt(context: KindContext): number {
    const client = context.client();
    return Math.min(Date.now(), client.keys.listedSince() ?? Infinity, client.usernames.listedSince() ?? Infinity);
  },
  /** Check found no object of `kind` with this key, in what Kasm answered at `at` (default: now). */
  rememberAbsent(context: KindContext, kind: string, key: string, at: number = Date.now()): void {
    context.memory().absences.set(absenceKey(kind, key), at);
  },
  /** Whether check found no such object within {@link ABSENCE_STANDS_MS}; the answer is given once. */
  absentLately(context: KindContext, kind: string, key: string): boolean {
    const { absences } = context.memory();
    const at = absences.get(absenceKey(kind, key));
    absences.delete(absenceKey(kind, key));
    return at !== undefined && Date.now() - at < ABSENCE_STANDS_MS;
  },
};
