import { useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { CalendarPlus, Check, Copy, Download, RefreshCw, Rss } from 'lucide-react';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button, buttonClass } from '@web/components/ui/button';
import { calendarDownloadUrl, calendarFeedUrl } from './api/calendar';

/** "Add to calendar": the .ics download, and the private feed URL to subscribe to. */
export function CalendarActions() {
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  const inputId = useId();
  const feed = useMutation({ mutationFn: (rotate: boolean) => calendarFeedUrl(rotate), onSuccess: () => setCopied(false) });

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // No clipboard permission (an insecure origin): select the text for Ctrl+C instead.
      const input = document.getElementById(inputId) as HTMLInputElement | null;
      input?.select();
    }
    setCopied(true);
  }

  return (
    // Escape bubbles up from the buttons and the feed input inside: the wrapper only listens, it is not a control.
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions
    <div className="relative w-full sm:w-auto" onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
      <div role="group" aria-label="Add to calendar" className="flex flex-wrap items-center gap-2">
        <span className="hidden items-center gap-1.5 text-sm font-medium text-slate-700 sm:flex">
          <CalendarPlus className="h-4 w-4" aria-hidden="true" /> Add to calendar:
        </span>
        <a href={calendarDownloadUrl} download="agora-classes.ics" className={buttonClass('secondary', 'py-2')}>
          <Download className="h-4 w-4" aria-hidden="true" /> Download .ics
        </a>
        <Button
          variant="secondary"
          className="py-2"
          aria-expanded={open}
          onClick={() => {
            setOpen((o) => !o);
            if (!feed.data && !feed.isPending) feed.mutate(false);
          }}
        >
          <Rss className="h-4 w-4" aria-hidden="true" /> Subscribe
        </Button>
      </div>
      {open && (
        <div className="z-20 mt-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-lg sm:absolute sm:right-0 sm:top-full sm:mt-2 sm:w-[28rem]">
          <label htmlFor={inputId} className="block text-sm font-semibold text-slate-900">
            Private calendar feed URL
          </label>
          <p className="text-xs text-slate-600">
            Add it to Google Calendar, Apple Calendar or Outlook ("subscribe from URL"); your classes stay up to date. Keep it private:
            anyone with the link sees your class times.
          </p>
          {feed.error && (
            <div className="mt-2">
              <Alert tone="error">{feed.error instanceof ApiError ? feed.error.message : 'The link could not be made.'}</Alert>
            </div>
          )}
          <div className="mt-2 flex gap-2">
            <input
              id={inputId}
              readOnly
              value={feed.data?.url ?? (feed.isPending ? 'Making your link…' : '')}
              onFocus={(e) => e.target.select()}
              className="block w-full min-w-0 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs text-slate-800"
            />
            <Button
              variant="secondary"
              className="shrink-0 py-2"
              disabled={!feed.data}
              onClick={() => feed.data && void copy(feed.data.url)}
            >
              {copied ? <Check className="h-4 w-4 text-emerald-700" aria-hidden="true" /> : <Copy className="h-4 w-4" aria-hidden="true" />}
              {copied ? 'Copied' : 'Copy'}
            </Button>
          </div>
          <p className="sr-only" aria-live="polite">
            {copied ? 'The feed URL was copied' : ''}
          </p>
          {feed.data && (
            <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
              <a href={feed.data.url.replace(/^https?:/, 'webcal:')} className="font-semibold text-brand-700 hover:underline">
                Open in your calendar app
              </a>
              <button
                type="button"
                className="inline-flex items-center gap-1 text-slate-600 hover:text-slate-900 hover:underline"
                onClick={() => feed.mutate(true)}
              >
                <RefreshCw className="h-3.5 w-3.5" aria-hidden="true" /> Make a new link (the old one stops working)
              </button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
