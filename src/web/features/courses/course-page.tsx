import { ComingSoon } from '../../components/coming-soon';

export default function Page() {
  return <ComingSoon title="Course" description="Course details, sessions and reviews will be shown here." />;
}
