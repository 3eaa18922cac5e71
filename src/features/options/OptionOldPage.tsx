// The old deep link (/pages/Option/Option_old): opens the Options page with the same query.
// It replaces itself and leaves the history, so Back from Options never comes back here.
import { useEffect } from 'react';
import { useSearch } from 'wouter';
import { ROUTES } from '../../api-contract/routes.ts';
import { forgetVisits, navigate } from '../../lib/navigation.ts';

/** The Options route that an old link with `query` stands for. */
export const optionRouteFor = (query: string) => `${ROUTES.option}${query ? `?${query.replace(/^\?/, '')}` : ''}`;

export default function OptionOldPage() {
  const query = useSearch();
  useEffect(() => {
    forgetVisits(ROUTES.optionOld);
    navigate(optionRouteFor(query), { replace: true });
  }, [query]);
  return null;
}
