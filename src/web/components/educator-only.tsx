import type { ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { isNotEducator } from '@web/lib/api';
import { useViewer } from '@web/lib/viewer';
import { paths } from '@web/lib/paths';

/** Educator-only screens: a user without an educator record goes to /educator/onboard. */
export function EducatorOnly({ children }: { children: ReactNode }) {
  const me = useViewer();
  const location = useLocation();
  if (!me.educator) return <Navigate to={paths.educatorOnboard} replace state={{ from: location.pathname }} />;
  return <>{children}</>;
}

/** A write answered "not_educator" (the record is gone): off to onboarding. */
export function useNotEducatorRedirect() {
  const navigate = useNavigate();
  return (error: unknown) => {
    if (!isNotEducator(error)) return false;
    navigate(paths.educatorOnboard, { replace: true });
    return true;
  };
}
