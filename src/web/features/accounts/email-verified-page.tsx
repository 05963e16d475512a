import { useSearchParams } from 'react-router';
import { BadgeCheck, CircleAlert } from 'lucide-react';
import { paths } from '@web/lib/paths';
import { ButtonLink } from '@web/components/ui/button';
import { useMe } from '@web/lib/viewer';
import { AuthCard } from './auth-card';

export default function EmailVerifiedPage() {
  const [params] = useSearchParams();
  const failed = params.get('error');
  const { data: me } = useMe();
  const change = params.get('change');
  if (change) {
    const done = change === 'done';
    return (
      <AuthCard title={done ? 'Your email address is changed' : 'This link did not work'}>
        <div className="flex flex-col items-center text-center">
          {done ? (
            <BadgeCheck className="h-12 w-12 text-emerald-600" aria-hidden="true" />
          ) : (
            <CircleAlert className="h-12 w-12 text-red-700" aria-hidden="true" />
          )}
          <p className="mt-4 text-slate-700">
            {done
              ? 'From now on you log in with your new address, and our emails go there.'
              : 'The link is invalid, was used already or has expired. Ask for a new one in your settings.'}
          </p>
        </div>
        <ButtonLink to={me ? paths.settings : paths.login()} className="mt-6 w-full">
          {me ? 'Back to settings' : 'Log in'}
        </ButtonLink>
      </AuthCard>
    );
  }
  if (failed) {
    return (
      <AuthCard title="This link did not work">
        <div className="flex flex-col items-center text-center">
          <CircleAlert className="h-12 w-12 text-red-700" aria-hidden="true" />
          <p className="mt-4 text-slate-700">The verification link is invalid or has expired. Log in to get a new one.</p>
        </div>
        <ButtonLink to={paths.login()} className="mt-6 w-full">
          Go to log in
        </ButtonLink>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Your email is verified">
      <div className="flex flex-col items-center text-center">
        <BadgeCheck className="h-12 w-12 text-emerald-600" aria-hidden="true" />
        <p className="mt-4 text-slate-700">Thank you{me ? `, ${me.firstName}` : ''}! Your Agora account is ready.</p>
      </div>
      <ButtonLink to={me ? paths.explore : paths.login()} className="mt-6 w-full">
        {me ? 'Start exploring' : 'Log in'}
      </ButtonLink>
    </AuthCard>
  );
}
