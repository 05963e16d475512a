import { Link } from 'react-router';
import { paths } from '@web/lib/paths';
import { PageHeader } from '@web/components/ui/card';
import { PaymentHistoryCard } from '@web/features/payments/payment-history-card';
import { InstallmentsCard } from '@web/features/payments/installments-card';
import { useViewer } from '@web/lib/viewer';
import { ProfileForm } from '@web/features/accounts/profile-form';
import { SignInSessionsCard } from '@web/features/accounts/sign-in-sessions-card';
import { TwoFactorCard } from '@web/features/accounts/two-factor-card';
import { LinkedAccountsCard } from '@web/features/accounts/linked-accounts-card';
import { NotificationPreferencesCard } from '@web/features/notifications/notification-preferences-card';
import { AccountSettingsSection } from '@web/features/accounts/account-settings-cards';
import { BlockedPeopleCard } from '@web/features/mailbox/blocked-people-card';

export default function SettingsPage() {
  const me = useViewer();
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Settings" subtitle="Your profile, picture, payments, sign-in security and signed-in devices." />
      <div className="space-y-6">
        <ProfileForm user={me} />
        <InstallmentsCard />
        <PaymentHistoryCard />
        <NotificationPreferencesCard />
        <TwoFactorCard />
        <LinkedAccountsCard />
        <SignInSessionsCard />
        <AccountSettingsSection user={me} />
        <BlockedPeopleCard />
        <p className="text-sm text-slate-600">
          Need help from support? Share the details on your{' '}
          <Link to={paths.authTest} className="font-semibold text-brand-700 hover:underline">
            session page
          </Link>
          .
        </p>
      </div>
    </div>
  );
}
