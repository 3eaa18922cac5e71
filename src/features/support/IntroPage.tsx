// Intro (/pages/intro/intro, custom nav bar): the getting-started page of text in the current language.
import { Trans } from '@lingui/react/macro';
import { contentPage } from '../../api-contract/support.ts';
import { InfoIcon } from '../../ui/icons.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { ArticleBody, ContentFailure, useContentPage } from './ContentArticle.tsx';
import './support.css';

export default function IntroPage() {
  const { page, failure, retry } = useContentPage('intro');
  return (
    <div className="page support-page">
      <NavBar title={<Trans>Introduction</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[contentPage]} />
        {page && (
          <article className="card support-article">
            <header className="support-article-head">
              <InfoIcon />
              <h2>{page.title}</h2>
            </header>
            <ArticleBody body={page.body} />
          </article>
        )}
        {!page && failure && <ContentFailure failure={failure} retry={retry} />}
      </div>
    </div>
  );
}
