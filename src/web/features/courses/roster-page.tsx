import { ComingSoon } from '../../components/coming-soon';

export default function Page() {
  return <ComingSoon title="Roster" description="Educators will see who enrolled in each session here." />;
}
