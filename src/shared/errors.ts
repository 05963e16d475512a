import { z } from 'zod';

/** The one error body every API answer uses for a failure. */
export const errorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    /** Field name -> what is wrong with it. */
    fields: z.record(z.string(), z.string()).optional(),
    reasons: z.array(z.string()).optional(),
    retryAfterSeconds: z.number().optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBody>;
