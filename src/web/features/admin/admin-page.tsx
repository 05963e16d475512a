import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import NotFoundPage from '@web/components/not-found-page';
import { ButtonLink } from '@web/components/ui/button';
import { PageHeader } from '@web/components/ui/card';
import { LoadError } from '@web/components/ui/load-error';
import { Spinner } from '@web/components/ui/spinner';
import { adminMeQuery } from './api/access';
import { ContactMessagesSection } from './contact-messages';
import { JobsSection } from './jobs-section';
import { AuditSection, ClassroomReportsSection, RefundsSection, ReportsSection } from './records-sections';
import { ADMIN_TABS as TABS, adminHref, type AdminTab as Tab } from './links';
import { UsersSection } from './users-section';
import { ClubsSection } from './clubs-section';
import { PromoCodesSection } from './promo-codes-section';

/**
 * /admin: admins only; everyone else sees the not-found page (the route is not advertised).
 * The section (and the user open in Users) lives in the URL: each has a link, and the
 * browser's back button returns to the one before. ?section=contact is the link in a
 * contact message's email.
 */
export default function AdminPage() {
  const me = useQuery(adminMeQuery);
  const [search] = useSearchParams();
  const tab: Tab = TABS.find(([key]) => key === search.get('section'))?.[0] ?? 'users';
  if (me.isPending) return <Spinner label="Loading…" />;
  if (me.isError)
    return <LoadError title="Could not load the admin console" error={me.error} onRetry={() => me.refetch()} retrying={me.isFetching} />;
  if (!me.data.admin) return <NotFoundPage />;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Admin"
        subtitle="Users, clubs, background jobs, refunds owed, platform promo codes, contact messages and the audit log of admin actions."
      />
      <nav aria-label="Admin sections" className="flex flex-wrap gap-2">
        {TABS.map(([key, label]) => (
          <ButtonLink
            key={key}
            to={adminHref(key)}
            variant={tab === key ? 'primary' : 'secondary'}
            aria-current={tab === key ? 'page' : undefined}
          >
            {label}
          </ButtonLink>
        ))}
      </nav>
      {tab === 'users' && <UsersSection />}
      {tab === 'clubs' && <ClubsSection />}
      {tab === 'jobs' && <JobsSection />}
      {tab === 'refunds' && <RefundsSection />}
      {tab === 'promo' && <PromoCodesSection />}
      {tab === 'contact' && <ContactMessagesSection />}
      {tab === 'reports' && (
        <div className="space-y-6">
          <ReportsSection />
          <ClassroomReportsSection />
        </div>
      )}
      {tab === 'audit' && <AuditSection />}
    </div>
  );
}
