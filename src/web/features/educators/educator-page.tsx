import { ComingSoon } from '../../components/coming-soon';

export default function Page() {
  return <ComingSoon title="Educator" description="The educator’s profile, courses and rating." />;
}
