import { Compass } from 'lucide-react';
import { ButtonLink } from './ui/button';
import { paths } from '@web/lib/paths';

export default function NotFoundPage() {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center px-4 text-center">
      <Compass className="h-14 w-14 text-brand-700" aria-hidden="true" />
      <p className="mt-4 text-sm font-semibold text-brand-700">404</p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900">Page Not Found</h1>
      <p className="mt-2 max-w-md text-slate-600">The page you are looking for does not exist or is not available to you.</p>
      <div className="mt-6 flex gap-3">
        <ButtonLink to={paths.home}>Go home</ButtonLink>
        <ButtonLink to={paths.explore} variant="secondary">
          Explore courses
        </ButtonLink>
      </div>
    </div>
  );
}
