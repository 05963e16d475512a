import { ComingSoon } from '../../components/coming-soon';

export default function Page() {
  return <ComingSoon title="Edit educator profile" description="Edit your bio, photo and subjects." />;
}
