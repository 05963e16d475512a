import { Link } from 'react-router';
import type { CourseView } from '@shared/courses-schemas';
import { Stars } from '@web/components/ui/stars';
import { paths } from '@web/lib/paths';

/** Who teaches the course, with a link to their profile. */
export function EducatorCard({ educator }: { educator: CourseView['educator'] }) {
  return (
    <div className="flex gap-4">
      <img
        src={educator.profileImage}
        alt=""
        className="h-16 w-16 shrink-0 rounded-full border border-slate-200 object-cover"
        width={64}
        height={64}
      />
      <div className="min-w-0">
        <p className="font-semibold text-slate-900">
          <Link to={paths.educator(educator.userId)} className="hover:text-brand-700 hover:underline">
            {educator.name}
          </Link>
        </p>
        {educator.headline && <p className="text-sm text-slate-700">{educator.headline}</p>}
        <div className="mt-1">
          <Stars value={educator.ratingAvg} count={educator.ratingCount} />
        </div>
        {educator.bio && <p className="mt-2 line-clamp-3 whitespace-pre-wrap break-words text-sm text-slate-600">{educator.bio}</p>}
        <Link to={paths.educator(educator.userId)} className="mt-2 inline-block text-sm font-semibold text-brand-700 hover:underline">
          View {educator.name}'s profile
        </Link>
      </div>
    </div>
  );
}
