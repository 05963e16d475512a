import { ComingSoon } from '../../../components/coming-soon';

export default function Page() {
  return <ComingSoon title="Create a course" description="Educators will write and publish courses here." />;
}
