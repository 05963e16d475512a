import { ExternalLink, MapPin } from 'lucide-react';
import { formatTimeRange } from '@web/lib/format';

/**
 * What a learner needs under a class time's heading, wherever it is listed (course page,
 * dashboard): the time in the course session's own zone when it differs from the viewer's,
 * the place, and the meeting link.
 */
export function ClassTimeDetails({
  classTime: t,
  viewerZone,
  zone,
  zoneNote = '',
}: {
  classTime: { startsAt: string; endsAt: string; location?: string | null; meetingUrl?: string | null };
  viewerZone: string;
  /** The course session's time zone. */
  zone: string;
  /** Said after the zone's name, e.g. ", the session's time zone". */
  zoneNote?: string;
}) {
  return (
    <>
      {zone !== viewerZone && (
        <p className="text-xs text-slate-600">
          {formatTimeRange(t.startsAt, t.endsAt, zone)} in {zone}
          {zoneNote}
        </p>
      )}
      {t.location && (
        <p className="mt-0.5 flex items-center gap-1 text-xs text-slate-600">
          <MapPin className="h-3.5 w-3.5 shrink-0" aria-hidden="true" /> {t.location}
        </p>
      )}
      {t.meetingUrl && (
        <a
          href={t.meetingUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-0.5 inline-flex items-center gap-1 break-all text-xs font-semibold text-brand-700 hover:underline"
        >
          Join the class <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
        </a>
      )}
    </>
  );
}
