/**
 * `user-password-length`: a password a program sets on a User is at least `minLength`
 * characters (default 12).
 *
 * Why: the password is the account's only factor unless two-factor is set up; a short one is the
 * easiest way in. A User without a password gets a random one from Kasm and is not flagged. The
 * message never quotes the password or its length.
 */
import { isUnknownValue, resourceRule } from "./common";

/** The `user-password-length` policy: the rule above, on each User. */
export const userPasswordLength = resourceRule({
  name: "user-password-length",
  kind: "User",
  description: "A password set on a Kasm user is at least minLength characters long.",
  severity: "medium",
  area: "users",
  remediationSteps: "Use a longer password (a generated secret, such as random.RandomPassword, stored as a Pulumi secret).",
  config: {
    minLength: { type: "integer", minimum: 1, default: 12, description: "The shortest password accepted." },
  },
  check: (user, config) => {
    const password = user.password;
    if (password === undefined || password === null) return null;
    if (isUnknownValue(password)) return { undecided: "password is not known yet" };
    const min = typeof config.minLength === "number" ? config.minLength : 12;
    return typeof password === "string" && [...password].length < min
      ? { violation: `password is shorter than minLength (${min}) characters. Use a longer, generated password.` }
      : null;
  },
});
