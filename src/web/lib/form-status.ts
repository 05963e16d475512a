import { useEffect, useRef, useState } from 'react';

/**
 * The message above a form. A validation message ("Please correct the fields marked below")
 * goes by itself once the last marked field is corrected; any other message (a server's
 * answer) stays until the form sets another.
 */
export function useFormStatus<S extends { validation?: boolean }>(errorCount: number) {
  const [status, setStatus] = useState<S | null>(null);
  const hadErrors = useRef(false);
  useEffect(() => {
    if (status?.validation && hadErrors.current && errorCount === 0) setStatus(null);
    hadErrors.current = errorCount > 0;
  }, [status, errorCount]);
  return [status, setStatus] as const;
}
