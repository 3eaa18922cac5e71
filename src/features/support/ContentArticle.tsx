// A page of text from `/content/page` in the current language (company profile, intro), kept for
// offline reading; the FAQ as questions that open to their answers.
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { ContentPageKey } from '../../api-contract/support.ts';
import { errorText } from '../../lib/api.ts';
import { LoadFailure } from '../../ui/lists.tsx';
import { loadContentPage, pageKey, paragraphs, questionAndAnswer, supportState } from './support-store.ts';

/** Loads a page; what is kept shows at once and the answer replaces it. */
export function useContentPage(key: ContentPageKey) {
  const { pages } = useSnapshot(supportState);
  const [failure, setFailure] = useState<string | null>(null);
  const load = () => {
    setFailure(null);
    loadContentPage(key).catch((error) => setFailure(errorText(error)));
  };
  useEffect(load, [key]);
  return { page: pages[pageKey(key)] ?? null, failure, retry: load };
}

export function ContentFailure({ failure, retry }: { failure: string; retry: () => void }) {
  return <LoadFailure onRetry={retry}>{failure}</LoadFailure>;
}

export function ArticleBody({ body }: { body: string }) {
  return (
    <div className="support-article-body">
      {paragraphs(body).map((paragraph, index) => (
        <p key={index} dir="auto">
          {paragraph}
        </p>
      ))}
    </div>
  );
}

/** Each question opens to its answer (native details: keyboard and screen readers for free). */
export function Faq({ body }: { body: string }) {
  return (
    <div className="support-faq">
      {paragraphs(body).map((paragraph, index) => {
        const { question, answer } = questionAndAnswer(paragraph);
        return (
          <details key={index}>
            <summary dir="auto">{question}</summary>
            <p dir="auto">{answer}</p>
          </details>
        );
      })}
    </div>
  );
}
