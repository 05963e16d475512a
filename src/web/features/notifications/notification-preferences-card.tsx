import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmailMode, NotificationPreferences, NotificationType } from '@shared/notifications-schemas';
import { Card } from '@web/components/ui/card';
import { Skeleton } from '@web/components/ui/skeleton';
import { LoadError } from '@web/components/ui/load-error';
import { ApiError } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';
import { notificationPreferencesQuery, saveNotificationPreferences } from './api/notifications';

const EMAIL_LABELS: Record<EmailMode, string> = { instant: 'At once', digest: 'Daily digest', off: 'Off' };

/** Settings: which notifications reach you, in the app and by email (a table of types x channels). */
export function NotificationPreferencesCard() {
  const queryClient = useQueryClient();
  const { data, error, refetch, isFetching } = useQuery(notificationPreferencesQuery);
  const [status, setStatus] = useState('');
  const save = useMutation({
    mutationFn: (change: { type: NotificationType; inApp?: boolean; email?: EmailMode }) => {
      const { type, ...channels } = change;
      return saveNotificationPreferences({ [type]: channels });
    },
    onMutate: (change) => {
      setStatus('Saving…');
      // Shown at once; put back if the server refuses.
      const before = queryClient.getQueryData<NotificationPreferences>(queryKeys.notificationPreferences);
      if (before)
        queryClient.setQueryData<NotificationPreferences>(queryKeys.notificationPreferences, {
          preferences: before.preferences.map((p) => (p.type === change.type ? { ...p, ...change } : p)),
        });
      return { before };
    },
    onSuccess: (fresh) => {
      queryClient.setQueryData(queryKeys.notificationPreferences, fresh);
      setStatus('Saved');
    },
    onError: (err, _change, context) => {
      if (context?.before) queryClient.setQueryData(queryKeys.notificationPreferences, context.before);
      setStatus(err instanceof ApiError ? `Not saved: ${err.message}` : 'Not saved. Please try again.');
    },
  });

  return (
    <Card>
      <div id="notification-settings" className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
        <div>
          <h2 id="notification-settings-heading" className="text-lg font-semibold text-slate-900">
            Notifications
          </h2>
          <p className="text-sm text-slate-600">
            What reaches you in Agora and by email. Every email has a one-click unsubscribe link too.
          </p>
        </div>
        <p role="status" aria-live="polite" className="text-sm text-slate-600">
          {status}
        </p>
      </div>
      {error && !data ? (
        <LoadError
          title="Your notification settings could not be loaded"
          error={error}
          onRetry={() => void refetch()}
          retrying={isFetching}
        />
      ) : !data ? (
        <div className="space-y-2" aria-busy="true">
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
        </div>
      ) : (
        <div className="-mx-2 overflow-x-auto">
          <table className="w-full min-w-[18rem] text-left text-sm" aria-labelledby="notification-settings-heading">
            <thead>
              <tr className="border-b border-slate-200 text-slate-700">
                <th scope="col" className="px-2 py-2 font-semibold">
                  Notification
                </th>
                <th scope="col" className="px-2 py-2 text-center font-semibold">
                  In the app
                </th>
                <th scope="col" className="px-2 py-2 font-semibold">
                  Email
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.preferences.map((p) => (
                <tr key={p.type}>
                  <th scope="row" className="px-2 py-2 font-medium text-slate-900">
                    {p.label}
                  </th>
                  <td className="px-2 py-2 text-center">
                    <input
                      type="checkbox"
                      className="h-5 w-5 accent-brand-700"
                      checked={p.inApp}
                      aria-label={`${p.label}: in the app`}
                      onChange={(e) => save.mutate({ type: p.type, inApp: e.target.checked })}
                    />
                  </td>
                  <td className="px-2 py-2">
                    <select
                      className="w-full min-w-[8rem] rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900"
                      value={p.email}
                      aria-label={`${p.label}: email`}
                      onChange={(e) => save.mutate({ type: p.type, email: e.target.value as EmailMode })}
                    >
                      {(Object.keys(EMAIL_LABELS) as EmailMode[]).map((m) => (
                        <option key={m} value={m}>
                          {EMAIL_LABELS[m]}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
