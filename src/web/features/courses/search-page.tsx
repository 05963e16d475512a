import { ComingSoon } from '../../components/coming-soon';

export default function Page() {
  return <ComingSoon title="Find a course" description="Search live courses by subject, city and start date." />;
}
