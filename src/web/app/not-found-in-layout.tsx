import NotFoundPage from '@web/components/not-found-page';
import { useMe } from '@web/lib/viewer';
import { AppLayout } from './app-layout';
import { LandingLayout } from './landing-layout';

/** The not-found page of an unknown path, in the layout the viewer is used to. */
export function NotFoundInLayout() {
  const { data: me } = useMe();
  return me ? (
    <AppLayout>
      <NotFoundPage />
    </AppLayout>
  ) : (
    <LandingLayout>
      <NotFoundPage />
    </LandingLayout>
  );
}
