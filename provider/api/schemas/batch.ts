/**
 * Schemas shared by the two multipart batch imports (`batch_create_user`, `batch_create_server`):
 * the CSV validation report and the answer envelope.
 */
import { z } from "zod";
import { Int, NullableString } from "./common";

/** What `view` a batch import answers with: `api` (resources only), `table` (validation report only; the default), `all` (both). */
export const BatchView = z.enum(["api", "table", "all"]);
/** What `view` a batch import answers with. */
export type BatchView = z.infer<typeof BatchView>;

/** One CSV validation error: a code such as `CSV_ERROR_002` and a message. */
export const CsvError = z.object({ code: z.string(), message: z.string() });
/** One CSV validation error. */
export type CsvError = z.infer<typeof CsvError>;

/** The validation report of a CSV import. */
export const CsvValidationData = z.object({
  headers: z.array(z.string()),
  total_errors: Int,
  global_errors: z.array(CsvError.extend({ field_names: z.array(z.string()).optional() })),
  total_rows: Int,
  row_data: z.array(
    z.object({
      total_errors: Int,
      contextual_errors: z.array(CsvError.extend({ fields: z.array(z.string()).optional() })),
      fields: z.array(z.object({ field: z.string(), value: z.unknown(), error: CsvError.nullable().optional() })),
    }),
  ),
  file_bom: NullableString.optional(),
});
/** The validation report of a CSV import. */
export type CsvValidationData = z.infer<typeof CsvValidationData>;

/** The answer envelope of a batch import, around the created resources. */
export function BatchResult<R extends z.ZodType>(resources: R) {
  return z.object({
    error_message: NullableString.optional(),
    csv_validation_data: CsvValidationData.nullable().optional(),
    resources: resources.nullable().optional(),
  });
}
