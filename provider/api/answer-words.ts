/**
 * Words the transport puts into its errors, read from an answer or a failure: why a failed request
 * was not repeated, each problem of a CSV validation report, and where in an answer a shape
 * problem is.
 */
import { NOT_SENT_ERROR_CODES, describeFailure, type Failure, type RepeatMode } from "./retry";
import type { CsvValidationData } from "./schemas/batch";

/** Why a failed request was not repeated, when that matters to the user: it may have been applied. */
export function notRepeatedNote(mode: RepeatMode, failure: Failure): string {
  if (mode !== "once") return "";
  if (failure.status !== undefined && failure.status < 500) return "";
  // A refused connection (or one that never opened) carried nothing: it cannot have been applied.
  if (failure.code !== undefined && NOT_SENT_ERROR_CODES.includes(failure.code)) return "; the request never reached the server, so nothing was applied";
  return `; it was not repeated because repeating it could apply it twice, and it may have been applied (${describeFailure(failure)})`;
}

/** Each problem of a CSV validation report, as `row 2: CSV_ERROR_009 <message>` (rows count from 1). */
export function csvProblems(report: CsvValidationData): string[] {
  const problems = report.global_errors.map((e) => `${e.code} ${e.message}`);
  report.row_data.forEach((row, i) => {
    for (const e of row.contextual_errors) problems.push(`row ${i + 1}: ${e.code} ${e.message}`);
    for (const field of row.fields) if (field.error) problems.push(`row ${i + 1}, ${field.field}: ${field.error.code} ${field.error.message}`);
  });
  return problems;
}

/** A zod issue path as `user.groups[0].group_id`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${String(key)}`)).join("");
}

/** The longest page text an error quotes. */
const PAGE_WORDS_MAX = 160;

/**
 * The words of an answer's body that is not JSON (a web server's error page, such as Kasm 1.15's
 * `<html><body>An unhandled exception occurred check logs for details<body><html>`): the text
 * without markup, spaces collapsed, cut at {@link PAGE_WORDS_MAX} characters. Undefined for an
 * empty body. The caller scrubs it of secrets.
 */
export function pageWords(body: string): string | undefined {
  const text = body
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (text === "") return undefined;
  return text.length > PAGE_WORDS_MAX ? `${text.slice(0, PAGE_WORDS_MAX)}...` : text;
}
