import * as v from 'valibot';

/**
 * The one error shape of every refusal (apiError.ts; README, "Endpoints"):
 * `{"error":{"code","message"}}`. Declared once; the OpenAPI document refers to it as `Error`.
 */
export const ApiErrorBodySchema = v.object({
  error: v.object({ code: v.string(), message: v.string() }),
});
