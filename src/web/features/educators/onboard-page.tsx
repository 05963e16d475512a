import { ComingSoon } from '../../components/coming-soon';

export default function Page() {
  return <ComingSoon title="Become an educator" description="Set up your educator profile and payouts." />;
}
