/**
 * Kasm's texts, and what each means: the patterns of the messages that decide an answer's class
 * whatever its status code (a license limit, wrong credentials, a missing permission, an unknown
 * object), for releases 1.19 and 1.15. Apart, and importing nothing, because both the error
 * classes (an expired key, an unlicensed feature) and the classification read them: this is the
 * one place that knows Kasm's wording.
 */

/**
 * What a license stopped: a new user (named-user seats), a new session (concurrent sessions), or
 * a feature the license does not include (1.15: 403 `Access Denied. This feature is not licensed`).
 */
export type LicenseLimited = "user" | "session" | "feature";

/** Texts of Kasm's 400 answers that mean "no such object" (Kasm has no 404 for these). */
const NOT_FOUND_MESSAGES: readonly RegExp[] = [
  /^Unknown\b/i, // Unknown User, Unknown user (<id>), Unknown session (<id>)
  /\bdoes not exist\b/i,
  /\bdoes not exit by that id\b/i, // 1.15 update_group, as written there
  /^Invalid (User|Group|Server|Image|Zone) ID\b/i,
  /\bnot found\b/i,
  /^No user found with\b/i, // 1.15 get_attributes (`... name/id: (<id>)`) and get_login (`... id: (<id>)`)
  /^Missing or invalid user$/i, // 1.15 update_user_attributes
];

/** Kasm's text for a license whose seats are used up (`License limit exceeded. Unable to create user`). */
export const LICENSE_LIMIT_MESSAGE = /^licen[cs]e limit exceeded\b/i;

/** Kasm's text for wrong or expired credentials (401 from 1.19.0; some earlier releases sent 403). */
export const BAD_CREDENTIALS_MESSAGE = /^invalid user ?name or password\b/i;

/** 1.15's text for a wrong key or secret (HTTP 403), exactly: `Access Denied`. */
export const ACCESS_DENIED_MESSAGE = /^access denied\.?$/i;

/** 1.15's text for an expired key (HTTP 401). */
export const EXPIRED_KEY_MESSAGE = /^access has expired\b/i;

/** 1.15's text for a feature the license lacks (HTTP 403). */
export const UNLICENSED_FEATURE_MESSAGE = /^access denied\. this feature is not licensed\b/i;

/** The text of a missing permission: 1.19 answers 403 `Unauthorized.`, 1.15 answers 401 `Unauthorized`. */
export const UNAUTHORIZED_MESSAGE = /^unauthorized\.?$/i;

/**
 * 1.15's text for a permission an operation checks inside, on the object it changes (HTTP 401 from
 * the public API: update_cast_config's check of the groups a config changes between).
 */
export const UNAUTHORIZED_ACTION_MESSAGE = /^unauthorized action\.?$/i;

/**
 * 1.15's text for a key whose permissions do not reach the user it deletes (HTTP 401, delete_user:
 * `API Key (<name>) unauthorized for deleting the requested user (<username>).`, and `... user
 * (<username>) sessions.` when the user has sessions to end).
 */
export const UNAUTHORIZED_FOR_TARGET_MESSAGE = /^(api key|user) \(.*\) unauthorized for\b/i;

/** 1.15's text for a key whose permissions do not reach the target group (HTTP 401, update_group). */
export const NOT_AUTHORIZED_FOR_TARGET_MESSAGE = /^user not authorized to\b/i;

/**
 * 1.15's text for a change its key may not make to the object, answered with HTTP 200 (update_image
 * without Images Modify Resources: `User (None) is not authorized to make these changes to the
 * image.`; an API key acts as no user, hence `None`).
 */
export const NOT_AUTHORIZED_CHANGE_MESSAGE = /^user \(.*\) is not authorized to\b/i;

/** Whether a 400 error message of `operation` says the named object does not exist. */
export function isNotFoundMessage(operation: string, message: string | undefined): boolean {
  if (message === undefined) return false;
  // get_user answers a bare "Invalid Request" when no user has that id or name.
  if (operation === "get_user" && message.trim() === "Invalid Request") return true;
  return NOT_FOUND_MESSAGES.some((re) => re.test(message.trim()));
}

/** What the license limit of a Kasm message stopped: `... Unable to create user` or `... session`. */
export function licenseLimited(message: string | undefined): LicenseLimited | undefined {
  if (UNLICENSED_FEATURE_MESSAGE.test((message ?? "").trim())) return "feature";
  const what = /unable to create (user|session)/i.exec(message ?? "")?.[1]?.toLowerCase();
  return what === "user" || what === "session" ? what : undefined;
}
