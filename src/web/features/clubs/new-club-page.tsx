import { Card, PageHeader } from '@web/components/ui/card';
import { ClubForm } from './components/club-form';

/** /club/new: start a club; the creator becomes its owner. */
export default function NewClubPage() {
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Start a club" subtitle="Bring people together around what you love. You can change everything later." />
      <Card>
        <ClubForm />
      </Card>
    </div>
  );
}
