import { useState } from 'react';
import { Link } from 'react-router';
import type { PurchaseRecordView } from '@shared/admin-schemas';
import { Badge } from '@web/components/ui/badge';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { ConfirmDialog } from '@web/components/ui/dialog';
import { Field } from '@web/components/ui/field';
import { queryKeys } from '@web/lib/query-keys';
import { banUser, deleteUser, resetTwoFactor, setRole, unbanUser, userQuery } from './api/users';
import { enrolmentLabel, errorText, money, purchaseLabel, sessionDates, when } from './format';
import { PanelPending, UserBadges } from './parts';

type Dialog = 'ban' | 'delete' | null;

/** One user: their details, sign-in sessions, emails and purchases, and the admin actions on them. */
export function UserPanel({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const detail = useQuery(userQuery(id));
  const [dialog, setDialog] = useState<Dialog>(null);
  const [reason, setReason] = useState('');
  const [confirmEmail, setConfirmEmail] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);

  async function run(key: string, action: () => Promise<unknown>, done: string) {
    setBusy(key);
    setMessage(null);
    setDialogError(null);
    try {
      await action();
      setDialog(null);
      setMessage({ tone: 'success', text: done });
      await queryClient.invalidateQueries({ queryKey: queryKeys.admin });
    } catch (err) {
      if (dialog) setDialogError(errorText(err));
      else setMessage({ tone: 'error', text: errorText(err) });
    } finally {
      setBusy(null);
    }
  }

  if (detail.isPending || detail.isError) return <PanelPending query={detail} errorTitle="Could not load this user" />;
  const { user: u, signInSessions, enrolments, payments, checkouts } = detail.data;
  return (
    <Card className="space-y-5">
      <section aria-label="Profile">
        <h2 className="text-lg font-semibold text-slate-900">
          {u.firstName} {u.lastName}
        </h2>
        <p className="break-all text-sm text-slate-700">{u.email}</p>
        <div className="mt-2">
          <UserBadges u={u} />
        </div>
        <dl className="mt-3 grid grid-cols-2 gap-1 text-sm text-slate-700">
          <dt className="text-slate-600">City</dt>
          <dd>{u.city ?? '—'}</dd>
          <dt className="text-slate-600">Joined</dt>
          <dd>{when(u.createdAt)}</dd>
          <dt className="text-slate-600">Last sign-in</dt>
          <dd>{when(u.lastSignInAt)}</dd>
          {u.banned && (
            <>
              <dt className="text-slate-600">Ban reason</dt>
              <dd>{u.banReason ?? '—'}</dd>
            </>
          )}
        </dl>
      </section>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      <div className="flex flex-wrap gap-2">
        {u.banned ? (
          <Button variant="secondary" loading={busy === 'unban'} onClick={() => run('unban', () => unbanUser(id), 'The ban is lifted.')}>
            Unban
          </Button>
        ) : (
          <Button
            variant="secondary"
            className="text-red-700"
            onClick={() => {
              setReason('');
              setDialogError(null);
              setDialog('ban');
            }}
          >
            Ban…
          </Button>
        )}
        {u.twoFactorEnabled && (
          <Button
            variant="secondary"
            loading={busy === '2fa'}
            onClick={() => run('2fa', () => resetTwoFactor(id), 'Two-factor sign-in is off for this user.')}
          >
            Reset two-factor
          </Button>
        )}
        {u.role === 'admin' ? (
          <Button
            variant="secondary"
            loading={busy === 'role'}
            onClick={() => run('role', () => setRole(id, 'user'), 'No longer an admin.')}
          >
            Revoke admin
          </Button>
        ) : (
          <Button variant="secondary" loading={busy === 'role'} onClick={() => run('role', () => setRole(id, 'admin'), 'Now an admin.')}>
            Make admin
          </Button>
        )}
        <Button
          variant="secondary"
          className="text-red-700"
          onClick={() => {
            setConfirmEmail('');
            setDialogError(null);
            setDialog('delete');
          }}
        >
          Delete…
        </Button>
      </div>

      <section>
        <h3 className="text-sm font-semibold text-slate-900">Sign-in sessions ({signInSessions.length})</h3>
        {signInSessions.length === 0 ? (
          <p className="text-sm text-slate-600">Not signed in anywhere.</p>
        ) : (
          <ul className="text-sm text-slate-700">
            {signInSessions.map((s) => (
              <li key={s.id}>
                {when(s.updatedAt)} · {s.ipAddress ?? 'unknown IP'}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="admin-enrolments">
        <h3 id="admin-enrolments" className="text-sm font-semibold text-slate-900">
          Enrolments ({enrolments.length})
        </h3>
        {enrolments.length === 0 ? (
          <p className="text-sm text-slate-600">No enrolments.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm text-slate-700">
            {enrolments.map((e) => {
              const label = enrolmentLabel(e.status);
              return (
                <li key={e.id} className="py-2">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <Link className="font-medium text-brand-700 hover:underline" to={`/course/${e.courseId}`}>
                      {e.courseTitle}
                    </Link>
                    <Badge tone={label.tone}>{label.text}</Badge>
                  </div>
                  <p className="text-slate-600">
                    Session {sessionDates(e.sessionStartsOn, e.sessionEndsOn)} · since {when(e.createdAt)}
                  </p>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <PurchaseList id="admin-payments" title="Payments" empty="No payments." items={payments} />
      {checkouts.length > 0 && (
        <PurchaseList
          id="admin-checkouts"
          title="Checkouts not paid"
          note="Started, never paid: no money was taken."
          empty=""
          items={checkouts}
        />
      )}

      <ConfirmDialog
        open={dialog === 'ban'}
        title={`Ban ${u.firstName} ${u.lastName}?`}
        confirmLabel="Ban"
        busy={busy === 'ban'}
        error={dialogError}
        onClose={() => setDialog(null)}
        onConfirm={() => run('ban', () => banUser(id, reason), 'Banned and signed out everywhere.')}
      >
        <p className="mb-3">They are signed out everywhere at once and see the reason when they try to log in.</p>
        <Field label="Reason" value={reason} maxLength={500} required onChange={(e) => setReason(e.target.value)} />
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'delete'}
        title={`Delete ${u.firstName} ${u.lastName}?`}
        confirmLabel="Delete for good"
        busy={busy === 'delete'}
        error={dialogError}
        onClose={() => setDialog(null)}
        onConfirm={() => run('delete', () => deleteUser(id, confirmEmail), 'The account is deleted; payment records stay, pseudonymised.')}
      >
        <p className="mb-3">
          Names, email, photo and sign-ins are erased; purchases and payments stay under a pseudonym. This cannot be undone. Type{' '}
          <strong className="break-all">{u.email}</strong> to confirm.
        </p>
        <Field label="Email of the account" value={confirmEmail} autoComplete="off" onChange={(e) => setConfirmEmail(e.target.value)} />
      </ConfirmDialog>
    </Card>
  );
}

const KIND_LABELS: Record<string, string> = {
  course_payment: 'One payment',
  course_installments: 'Installments',
  plan: 'Monthly plan',
};

/** A user's purchases: what, how much, and their state from the payments (refunded, failed, abandoned, ...). */
function PurchaseList({
  id,
  title,
  note,
  empty,
  items,
}: {
  id: string;
  title: string;
  note?: string;
  empty: string;
  items: PurchaseRecordView[];
}) {
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className="text-sm font-semibold text-slate-900">
        {title} ({items.length})
      </h3>
      {note && <p className="text-sm text-slate-600">{note}</p>}
      {items.length === 0 ? (
        <p className="text-sm text-slate-600">{empty}</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm text-slate-700">
          {items.map((p) => {
            const label = purchaseLabel(p);
            return (
              <li key={p.id} className="py-2">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  {p.courseId ? (
                    <Link className="font-medium text-brand-700 hover:underline" to={`/course/${p.courseId}`}>
                      {p.title}
                    </Link>
                  ) : (
                    <span className="font-medium text-slate-900">{p.title}</span>
                  )}
                  <Badge tone={label.tone}>{label.text}</Badge>
                </div>
                <p className="text-slate-600">
                  {money(p.amountCents, p.currency)} · {KIND_LABELS[p.kind] ?? p.kind.replace(/_/g, ' ')} · {when(p.createdAt)}
                  {p.failureReason && <> · {p.failureReason}</>}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
