import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import NotFoundPage from '@web/components/not-found-page';
import { Button } from '@web/components/ui/button';
import { PageHeader } from '@web/components/ui/card';
import { LoadError } from '@web/components/ui/load-error';
import { Spinner } from '@web/components/ui/spinner';
import { adminMeQuery } from './api/access';
import { ContactMessagesSection } from './contact-messages';
import { JobsSection } from './jobs-section';
import { AuditSection, RefundsSection, ReportsSection } from './records-sections';
import { UsersSection } from './users-section';

type Tab = 'users' | 'jobs' | 'refunds' | 'contact' | 'reports' | 'audit';
const TABS: [Tab, string][] = [
  ['users', 'Users'],
  ['jobs', 'Failed jobs'],
  ['refunds', 'Refunds owed'],
  ['contact', 'Contact messages'],
  ['reports', 'Reported messages'],
  ['audit', 'Audit log'],
];

/** /admin: admins only; everyone else sees the not-found page (the route is not advertised). */
export default function AdminPage() {
  const me = useQuery(adminMeQuery);
  // ?section=contact (the link in a contact message's email) opens that section.
  const [search] = useSearchParams();
  const [tab, setTab] = useState<Tab>(() => TABS.find(([key]) => key === search.get('section'))?.[0] ?? 'users');
  if (me.isPending) return <Spinner label="Loading…" />;
  if (me.isError)
    return <LoadError title="Could not load the admin console" error={me.error} onRetry={() => me.refetch()} retrying={me.isFetching} />;
  if (!me.data.admin) return <NotFoundPage />;
  return (
    <div className="space-y-6">
      <PageHeader title="Admin" subtitle="Users, background jobs, refunds owed, contact messages and the audit log of admin actions." />
      <nav aria-label="Admin sections" className="flex flex-wrap gap-2">
        {TABS.map(([key, label]) => (
          <Button key={key} variant={tab === key ? 'primary' : 'secondary'} aria-pressed={tab === key} onClick={() => setTab(key)}>
            {label}
          </Button>
        ))}
      </nav>
      {tab === 'users' && <UsersSection />}
      {tab === 'jobs' && <JobsSection />}
      {tab === 'refunds' && <RefundsSection />}
      {tab === 'contact' && <ContactMessagesSection />}
      {tab === 'reports' && <ReportsSection />}
      {tab === 'audit' && <AuditSection />}
    </div>
  );
}
