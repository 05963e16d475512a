import { ComingSoon } from '../../components/coming-soon';

export default function Page() {
  return <ComingSoon title="Drop this session" description="Learners will leave a session here." />;
}
