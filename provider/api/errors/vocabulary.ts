/**
 * The errors of the two wire vocabularies (the API documentation's names and the released
 * product's, see `../vocabulary.ts`): an answer in the other vocabulary than `apiNames`, a 404 for
 * an operation the other vocabulary names otherwise or lacks, and a product operation refused
 * before sending in `spec` mode. Apart because each says the same thing in its own case: switch
 * `apiNames`, and how.
 */
import { DEFAULT_SETTING_NAMES, envVar, settingRef, type SettingNames } from "../config";
import { switchAdvice } from "./advice";
import { KasmApiError, quote, type KasmErrorDetails } from "./base";

/**
 * The answer shows that the installation speaks the other wire vocabulary than the configured
 * `apiNames` (see `vocabulary.ts`). A released Kasm ignores fields it does not know and answers
 * 200, so a write in the wrong vocabulary may have been applied without the settings it named:
 * this error says so instead of reporting success. `answer` is the answer as read (translated).
 */
export class KasmVocabularyError extends KasmApiError {
  /** The vocabulary the client is configured with. */
  readonly configured: "spec" | "product";
  /** The vocabulary the answer showed. */
  readonly answered: "spec" | "product";
  /** The names of the answered vocabulary that the answer holds. */
  readonly foreignNames: readonly string[];
  readonly #answer: unknown;

  constructor(
    details: KasmErrorDetails & {
      readonly operation: string;
      readonly configured: "spec" | "product";
      readonly foreignNames: readonly string[];
      readonly answer: unknown;
      readonly write: boolean;
    },
  ) {
    const answered = details.configured === "spec" ? "product" : "spec";
    const speaks = answered === "product" ? "the released Kasm product's names" : "the API documentation's names";
    const shown = details.foreignNames.slice(0, 4).join(", ") + (details.foreignNames.length > 4 ? ", ..." : "");
    const consequence = details.write
      ? "it ignores fields named the other way, so settings this call sent may not have been applied"
      : "settings written in the configured vocabulary would be ignored";
    super(
      "vocabulary",
      `${details.operation}: the installation answered with ${speaks} (${shown}), but ${settingRef(details.settings ?? DEFAULT_SETTING_NAMES, "apiNames")} is "${details.configured}": ` +
        `${consequence}. ${switchAdvice(answered, details.settings)} and run again.`,
      details,
    );
    this.configured = details.configured;
    this.answered = answered;
    this.foreignNames = details.foreignNames;
    this.#answer = details.answer;
  }

  /**
   * The answer, read whichever names it used: what a create that did commit needs to keep its
   * object in the state. Kept private, so that printing, inspecting or serialising the error never
   * shows a record (which may hold credentials).
   */
  get answer(): unknown {
    return this.#answer;
  }
}

/**
 * HTTP 404 for an operation whose name or existence depends on the vocabulary (a product-only
 * operation, or one the product names otherwise, such as `request_kasm`): the installation most
 * likely speaks the other vocabulary than the configured `apiNames`.
 */
export class KasmMissingOperationError extends KasmApiError {
  constructor(details: KasmErrorDetails & { readonly operation: string; readonly wireName: string; readonly configured: "spec" | "product" }) {
    const other = details.configured === "spec" ? "product" : "spec";
    super(
      "vocabulary",
      `${details.operation}: the installation has no operation ${details.wireName} (HTTP 404 ${quote(details.errorMessage)}). ` +
        `${settingRef(details.settings ?? DEFAULT_SETTING_NAMES, "apiNames")} is "${details.configured}", and ${details.configured === "product" ? "an installation that follows the API documentation names it otherwise or lacks it" : "a released Kasm names it otherwise"}. ` +
        `${switchAdvice(other, details.settings)} if the installation ${other === "spec" ? "follows the API documentation" : "is a released Kasm (1.15 or later)"}, and run again.`,
      details,
    );
  }
}

/**
 * HTTP 404 for an operation that both vocabularies name alike: nothing at the configured address
 * answers it. Kasm answers an unknown object with 400 and a message, never with 404 (see
 * `messages.ts`), so a 404 is never read as "the object is gone": the address is not a Kasm API's
 * (a wrong `baseUrl`, or a proxy path in front of it), or the installation's release lacks the
 * operation (released Kasm 1.15 has no `set_drain_server`, `assign_user_server`, batch imports or
 * egress operations). A refresh or a delete that met it fails, rather than dropping the resource
 * from the state while its object stays in Kasm.
 */
export class KasmUnknownPathError extends KasmApiError {
  constructor(details: KasmErrorDetails & { readonly operation: string; readonly wireName: string }) {
    const settings = details.settings ?? DEFAULT_SETTING_NAMES;
    super(
      "unknown_path",
      `${details.operation}: the installation answered HTTP 404 ${quote(details.errorMessage)} for the operation ${details.wireName}: nothing at the configured address answers it, and nothing was changed. ` +
        `Check ${settingRef(settings, "baseUrl")} (or ${envVar(settings, "baseUrl")}): it must be the installation's own address, such as https://kasm.example.com, which answers an unknown object with HTTP 400, never 404. ` +
        `If the address is right, the installation's release of Kasm does not have ${details.wireName} (1.15 lacks several operations of the API documentation); manage this object in the Kasm UI instead.`,
      details,
    );
  }
}

/**
 * An operation that only the released product has (groups, cast config reads, license listing:
 * the API documentation leaves them out), called while `apiNames` is `spec`. Nothing was sent.
 */
export class KasmUnsupportedOperationError extends KasmApiError {
  constructor(operation: string, purpose?: string, settings: SettingNames = DEFAULT_SETTING_NAMES) {
    super(
      "unsupported",
      `${operation}${purpose ? ` (${purpose})` : ""} is an operation of the released Kasm product that the API documentation does not list, ` +
        `and ${settingRef(settings, "apiNames")} is "spec", so it was not sent. If the installation is a released Kasm (1.15 or later), ${switchAdvice("product", settings)}.`,
      { operation },
    );
  }
}
