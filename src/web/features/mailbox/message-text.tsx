import { Fragment } from 'react';
import { safeLinkHref } from '@web/lib/safe-href';

const LINK = /(https?:\/\/[^\s<>"]+|mailto:[^\s<>"]+@[^\s<>"]+)/gi;

/**
 * A message's text as React text nodes (never HTML), with http(s) and mailto links made
 * clickable when lib/safe-href accepts them; line breaks are kept by the caller's CSS.
 */
export function MessageText({ text }: { text: string }) {
  const parts = text.split(LINK);
  return (
    <>
      {parts.map((part, i) => {
        if (i % 2 === 0) return <Fragment key={i}>{part}</Fragment>;
        // A link's trailing punctuation belongs to the sentence.
        const trail = /[.,;:!?)\]]+$/.exec(part)?.[0] ?? '';
        const url = trail ? part.slice(0, -trail.length) : part;
        const href = safeLinkHref(url);
        return (
          <Fragment key={i}>
            {href ? (
              <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="break-all underline underline-offset-2">
                {url}
              </a>
            ) : (
              url
            )}
            {trail}
          </Fragment>
        );
      })}
    </>
  );
}
