import { BookOpen, CalendarDays, Users } from 'lucide-react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/ui/card';
import { useViewer } from '../accounts/api';

const AREAS = [
  { to: '/course/search', title: 'Courses', text: 'Live classes in sessions, online or near you.', Icon: BookOpen },
  { to: '/club/search', title: 'Clubs', text: 'Groups that meet for events around what they love.', Icon: Users },
  { to: '/dashboard', title: 'Your dashboard', text: 'Your upcoming class times and enrolments.', Icon: CalendarDays },
];

export default function ExplorePage() {
  const me = useViewer();
  return (
    <div>
      <PageHeader title={`Welcome, ${me.firstName}`} subtitle={me.city ? `Courses and clubs online and around ${me.city}.` : 'Find something new to learn this week.'} />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {AREAS.map(({ to, title, text, Icon }) => (
          <Link key={to} to={to} className="group rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:border-brand-500 hover:shadow">
            <Icon className="h-8 w-8 text-brand-700" aria-hidden="true" />
            <h2 className="mt-3 text-lg font-semibold text-slate-900 group-hover:text-brand-700">{title}</h2>
            <p className="mt-1 text-sm text-slate-600">{text}</p>
          </Link>
        ))}
      </div>
      <div className="mt-8 rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center">
        <h2 className="text-lg font-semibold text-slate-900">No courses yet</h2>
        <p className="mt-1 text-sm text-slate-600">Upcoming and popular courses will appear here as soon as educators publish them.</p>
      </div>
    </div>
  );
}
