import { ExternalLink, MapPin } from 'lucide-react';
import { formatTimeRange } from '@web/lib/format';

interface ClassTimePlaceFields {
  location?: string | null;
  meetingUrl?: string | null;
}

/**
 * Where a class time happens: the place, and the meeting link, as "Join the class" (what a
 * learner follows) or as the address itself (`link="url"`: what an educator checks).
 */
export function ClassTimePlace({ classTime: t, link = 'join' }: { classTime: ClassTimePlaceFields; link?: 'join' | 'url' }) {
  return (
    <>
      {t.location && (
        <p className="mt-0.5 flex items-center gap-1 text-xs text-slate-600">
          <MapPin className="h-3.5 w-3.5 shrink-0" aria-hidden="true" /> {t.location}
        </p>
      )}
      {t.meetingUrl &&
        (link === 'join' ? (
          <a
            href={t.meetingUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="mt-0.5 inline-flex items-center gap-1 break-all text-xs font-semibold text-brand-700 hover:underline"
          >
            Join the class <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
          </a>
        ) : (
          <a
            href={t.meetingUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="mt-0.5 inline-flex max-w-full items-center gap-1 text-xs text-brand-700 hover:underline"
          >
            <ExternalLink className="h-3.5 w-3.5 shrink-0" aria-hidden="true" /> <span className="truncate">{t.meetingUrl}</span>
          </a>
        ))}
    </>
  );
}

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
  classTime: { startsAt: string; endsAt: string } & ClassTimePlaceFields;
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
      <ClassTimePlace classTime={t} />
    </>
  );
}
