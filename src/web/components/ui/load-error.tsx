import { ApiError } from '@web/lib/api';
import { Alert } from './alert';
import { Button } from './button';

/** What a screen shows when its data could not be loaded: what failed, why, and a retry. */
export function LoadError({
  title,
  error,
  onRetry,
  retrying = false,
  className = 'space-y-3',
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
  /** The retry is under way (the button shows it). */
  retrying?: boolean;
  className?: string;
}) {
  return (
    <div className={className}>
      <Alert tone="error" title={title}>
        {error instanceof ApiError ? error.message : 'Please try again.'}
      </Alert>
      <Button variant="secondary" onClick={onRetry} loading={retrying}>
        Try again
      </Button>
    </div>
  );
}
