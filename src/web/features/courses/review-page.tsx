import { ComingSoon } from '../../components/coming-soon';

export default function Page() {
  return <ComingSoon title="Review this course" description="Learners will rate and review their courses here." />;
}
