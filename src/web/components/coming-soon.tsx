import { Hammer } from 'lucide-react';
import { ButtonLink } from './ui/button';
import { paths } from '@web/lib/paths';

/** A proper placeholder for screens that later issues fill in. */
export function ComingSoon({ title, description }: { title: string; description: string }) {
  return (
    <div className="mx-auto max-w-2xl">
      <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center">
        <Hammer className="mx-auto h-10 w-10 text-brand-700" aria-hidden="true" />
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        <p className="mt-2 text-slate-600">{description}</p>
        <p className="mt-1 text-sm font-medium text-brand-700">Coming soon</p>
        <ButtonLink to={paths.explore} variant="secondary" className="mt-6">
          Back to Explore
        </ButtonLink>
      </div>
    </div>
  );
}

/** Route component factory for a placeholder screen. */
export function comingSoon(title: string, description: string) {
  return function ComingSoonRoute() {
    return <ComingSoon title={title} description={description} />;
  };
}
