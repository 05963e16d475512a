import { ComingSoon } from '../../components/coming-soon';

export default function Page() {
  return <ComingSoon title="Dashboard" description="Your upcoming class times, courses and waitlists will be shown here." />;
}
