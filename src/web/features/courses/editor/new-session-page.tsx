import { ComingSoon } from '../../../components/coming-soon';

export default function Page() {
  return <ComingSoon title="New session" description="Educators will add a run of their course here." />;
}
