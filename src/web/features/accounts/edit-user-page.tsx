import { useParams } from 'react-router';
import { PageHeader } from '@web/components/ui/card';
import NotFoundPage from '@web/components/not-found-page';
import { useViewer } from '@web/lib/viewer';
import { ProfileForm } from './profile-form';

/** Only the owner may edit a user; anyone else sees the not-found page. */
export default function EditUserPage() {
  const { userID } = useParams();
  const me = useViewer();
  if (userID !== me.id) return <NotFoundPage />;
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Edit your profile" />
      <ProfileForm user={me} />
    </div>
  );
}
