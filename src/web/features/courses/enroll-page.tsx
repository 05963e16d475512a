import { ComingSoon } from '../../components/coming-soon';

export default function Page() {
  return <ComingSoon title="Enrol" description="Learners will enrol in a session here." />;
}
