import { ComingSoon } from '../../../components/coming-soon';

export default function Page() {
  return <ComingSoon title="Edit course" description="Educators will edit their course here." />;
}
