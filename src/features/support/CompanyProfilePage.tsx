// Company profile (/pages/index/companyProfile, custom nav bar): the `about` page of text in
// the current language, with a way to the getting-started intro.
import { Link } from 'wouter';
import { Trans } from '@lingui/react/macro';
import { contentPage } from '../../api-contract/support.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { BuildingIcon, ChevronIcon } from '../../ui/icons.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { ArticleBody, ContentFailure, useContentPage } from './ContentArticle.tsx';
import './support.css';

export default function CompanyProfilePage() {
  const { page, failure, retry } = useContentPage('about');
  return (
    <div className="page support-page">
      <NavBar title={<Trans>Company profile</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[contentPage]} />
        {page && (
          <article className="card support-article">
            <header className="support-article-head">
              <BuildingIcon />
              <h2>{page.title}</h2>
            </header>
            <ArticleBody body={page.body} />
          </article>
        )}
        {!page && failure && <ContentFailure failure={failure} retry={retry} />}
        <Link href={ROUTES.intro} className="card support-link">
          <span>
            <Trans>Getting started with the app</Trans>
          </span>
          <ChevronIcon className="flip-rtl" />
        </Link>
      </div>
    </div>
  );
}
