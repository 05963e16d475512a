import { ComingSoon } from '../../../components/coming-soon';

export default function Page() {
  return <ComingSoon title="New class time" description="Educators will schedule class times here." />;
}
