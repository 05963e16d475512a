import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Mail, UserPlus, UsersRound } from 'lucide-react';
import type { LearnerProfileView, PendingLearnerInvite } from '@shared/learner-profile-schemas';
import { ApiError } from '@web/lib/api';
import { formatDay } from '@web/lib/format';
import { queryKeys } from '@web/lib/query-keys';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { ConfirmDialog } from '@web/components/ui/dialog';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import {
  addLearnerProfile,
  cancelLearnerInvite,
  inviteLearner,
  learnerProfilesQuery,
  removeLearnerProfile,
  updateLearnerProfile,
} from './api/learner-profiles';
import { LearnerForm } from './learner-form';
import { LearnerInviteForm } from './learner-invite-form';

const ageWords = (age: string) => (age.includes('-') ? `Ages ${age}` : `Age ${age}`);
/** What a failed action says: the API's message, else `fallback` (the network, say). */
const errorText = (err: unknown, fallback: string) => (err ? (err instanceof ApiError ? err.message : fallback) : null);

/**
 * A learner's open invitation to an account of their own: where it went and until when its link
 * works; sent again (a new link, the old one stops) or cancelled (after a confirmation).
 */
function PendingInvite({
  invite,
  firstName,
  onSent,
  onCancel,
}: {
  invite: PendingLearnerInvite;
  firstName: string;
  onSent: (message: string) => Promise<void>;
  onCancel: () => void;
}) {
  const sendAgain = useMutation({
    mutationFn: () => inviteLearner(invite.learnerProfileId, { email: invite.email }),
    onSuccess: ({ message }) => onSent(message),
  });
  const error = errorText(sendAgain.error, 'Could not send the invitation. Please try again.');
  return (
    <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg bg-brand-50 px-3 py-2 text-sm text-slate-700">
      <Mail className="h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
      <p className="min-w-0 flex-1 break-words">
        Invitation sent to <span className="font-medium text-slate-900">{invite.email}</span>; the link works until{' '}
        {formatDay(invite.expiresAt)}.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          className="whitespace-nowrap px-3 py-1"
          loading={sendAgain.isPending}
          onClick={() => sendAgain.mutate()}
        >
          Send again<span className="sr-only"> to {firstName}</span>
        </Button>
        <Button variant="secondary" className="whitespace-nowrap px-3 py-1" disabled={sendAgain.isPending} onClick={onCancel}>
          Cancel invitation<span className="sr-only"> for {firstName}</span>
        </Button>
      </div>
      {error && (
        <p role="alert" className="w-full text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Settings, "Learners" (family accounts, ADR 0074): the children the account holder enrols
 * without an account of their own: add, edit, remove (after a confirmation), invite to an
 * account of their own (and see, send again or cancel that invitation).
 */
export function LearnersCard() {
  const { data, error, refetch, isRefetching } = useQuery(learnerProfilesQuery);
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const [inviting, setInviting] = useState<string | null>(null);
  const [removing, setRemoving] = useState<LearnerProfileView | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState<{ learner: LearnerProfileView; invite: PendingLearnerInvite } | null>(null);

  // The course pages list the account's learners too (whether each fits, "Enrol Leo too").
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.learnerProfiles }),
      queryClient.invalidateQueries({ queryKey: queryKeys.courses }),
    ]);
  const done = async (message: string) => {
    setEditing(null);
    setNotice(message);
    await refresh();
  };
  // Each confirmed in a dialog: the dialog closes and the card says what happened.
  const remove = useMutation({
    mutationFn: (learner: LearnerProfileView) => removeLearnerProfile(learner.id),
    onSuccess: ({ message }) => {
      setRemoving(null);
      return done(message);
    },
  });
  const cancelInvite = useMutation({
    mutationFn: (learner: LearnerProfileView) => cancelLearnerInvite(learner.id),
    onSuccess: ({ message }) => {
      setCancelling(null);
      return done(message);
    },
  });
  const full = !!data && data.items.length >= data.max;
  const invites = new Map(data?.invites.map((i) => [i.learnerProfileId, i]));

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Learners</h2>
      <p className="mt-1 text-sm text-slate-600">
        Enrol your children without giving them an account. You pay and get the emails; the educators of their classes see their first name,
        age and notes.
      </p>
      <div className="mt-4 space-y-4">
        {notice && (
          <p role="status" className="text-sm font-medium text-emerald-800">
            {notice}
          </p>
        )}
        {error && !data ? (
          <LoadError title="Your learners could not be loaded" error={error} onRetry={() => void refetch()} retrying={isRefetching} />
        ) : !data ? (
          <Skeleton className="h-16 w-full" />
        ) : data.items.length === 0 && editing !== 'new' ? (
          <div className="flex flex-col items-start gap-3 rounded-xl border border-dashed border-slate-300 bg-slate-50 p-4 sm:flex-row sm:items-center">
            <UsersRound className="h-8 w-8 shrink-0 text-brand-600" aria-hidden="true" />
            <p className="flex-1 text-sm text-slate-700">No learners yet. Add a child here, then choose them when you enrol in a class.</p>
            <Button onClick={() => setEditing('new')}>Add a learner</Button>
          </div>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Your learners">
            {data.items.map((learner) => (
              <li key={learner.id} className="py-3">
                {editing === learner.id ? (
                  <LearnerForm
                    learner={learner}
                    submitLabel="Save"
                    onCancel={() => setEditing(null)}
                    onSubmit={async (body) => done((await updateLearnerProfile(learner.id, body)).message)}
                  />
                ) : (
                  <div className="flex flex-wrap items-start gap-3">
                    <div className="min-w-0 flex-1">
                      <p className="font-medium text-slate-900">
                        {learner.firstName} <span className="font-normal text-slate-600">· {ageWords(learner.age)}</span>
                      </p>
                      {learner.notes && <p className="mt-0.5 line-clamp-2 break-words text-sm text-slate-600">{learner.notes}</p>}
                    </div>
                    <div className="flex flex-wrap gap-2">
                      <Button variant="secondary" className="whitespace-nowrap px-3 py-1.5" onClick={() => setEditing(learner.id)}>
                        Edit<span className="sr-only"> {learner.firstName}</span>
                      </Button>
                      <Button variant="secondary" className="whitespace-nowrap px-3 py-1.5" onClick={() => setInviting(learner.id)}>
                        Own account<span className="sr-only"> for {learner.firstName}</span>
                      </Button>
                      <Button
                        variant="secondary"
                        className="whitespace-nowrap px-3 py-1.5"
                        onClick={() => {
                          remove.reset();
                          setRemoving(learner);
                        }}
                      >
                        Remove<span className="sr-only"> {learner.firstName}</span>
                      </Button>
                    </div>
                  </div>
                )}
                {invites.has(learner.id) && editing !== learner.id && inviting !== learner.id && (
                  <PendingInvite
                    invite={invites.get(learner.id)!}
                    firstName={learner.firstName}
                    onSent={done}
                    onCancel={() => {
                      cancelInvite.reset();
                      setCancelling({ learner, invite: invites.get(learner.id)! });
                    }}
                  />
                )}
                {inviting === learner.id && editing !== learner.id && (
                  <LearnerInviteForm
                    learner={learner}
                    onCancel={() => setInviting(null)}
                    onDone={(message) => {
                      setInviting(null);
                      void done(message);
                    }}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
        {data && editing === 'new' && (
          <div className="rounded-xl border border-slate-200 p-4">
            <h3 className="mb-3 font-medium text-slate-900">New learner</h3>
            <LearnerForm
              submitLabel="Add learner"
              onCancel={() => setEditing(null)}
              onSubmit={async (body) => done((await addLearnerProfile(body)).message)}
            />
          </div>
        )}
        {data && data.items.length > 0 && editing !== 'new' && (
          <div className="flex flex-wrap items-center gap-3">
            <Button variant="secondary" onClick={() => setEditing('new')} disabled={full}>
              <UserPlus className="h-4 w-4" aria-hidden="true" />
              Add a learner
            </Button>
            {full && <p className="text-sm text-slate-600">You have {data.max} learners, the most an account keeps.</p>}
          </div>
        )}
      </div>
      <ConfirmDialog
        open={!!removing}
        title={`Remove ${removing?.firstName ?? ''}?`}
        confirmLabel="Remove"
        busy={remove.isPending}
        error={errorText(remove.error, 'Could not remove. Please try again.')}
        onConfirm={() => removing && remove.mutate(removing)}
        onClose={() => setRemoving(null)}
      >
        {removing?.firstName}&rsquo;s name, age and notes leave your learners. Classes they already took stay in your history. A learner
        with classes still to come must be dropped from them first.
      </ConfirmDialog>
      <ConfirmDialog
        open={!!cancelling}
        title={`Cancel ${cancelling?.learner.firstName ?? ''}’s invitation?`}
        confirmLabel="Cancel invitation"
        busy={cancelInvite.isPending}
        error={errorText(cancelInvite.error, 'Could not cancel. Please try again.')}
        onConfirm={() => cancelling && cancelInvite.mutate(cancelling.learner)}
        onClose={() => setCancelling(null)}
      >
        The link sent to {cancelling?.invite.email} stops working. {cancelling?.learner.firstName} stays in your learners, and you can
        invite them again later.
      </ConfirmDialog>
    </Card>
  );
}
