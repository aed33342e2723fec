import type { IssueTags } from '../../collector/routes/apiTypes';
import { clip, formatNumber, percent, segment } from '../format';
import { changed, searchOf, type IssueFilter, type IssueView } from '../issueQuery';

const FIELDS: Array<[field: keyof IssueTags, title: string, filter: IssueFilter]> = [
  ['browser', 'Browsers', 'browser'],
  ['os', 'Operating systems', 'os'],
  ['device', 'Devices', 'device'],
  ['page', 'Pages', 'page'],
  ['release', 'Releases', 'release'],
];

/**
 * An issue's reports counted by browser, OS, device, page and release over the page's range
 * (`GET .../issues/{fingerprint}/tags`), most first. Each value links to the site's issues
 * filtered by it (docs/dashboard.md, "Issues"); a page URL is shown as text in that link, never
 * followed itself.
 *
 * @example
 * <IssueBreakdowns siteKey="3f2a" view={view} tags={tags} />
 */
export const IssueBreakdowns = ({ siteKey, view, tags }: { siteKey: string; view: IssueView; tags: IssueTags }) => (
  <div class="columns breakdowns">
    {FIELDS.map(([field, title, filter]) => {
      const values = tags[field];
      const total = values.reduce((sum, each) => sum + each.count, 0);
      return (
        <section aria-labelledby={`tags-${field}`} data-testid={`tags-${field}`}>
          <h3 id={`tags-${field}`}>{title}</h3>
          {!values.length ? (
            <p class="muted">None in this range.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{title.replace(/s$/, '')}</th>
                  <th scope="col" class="num">Reports</th>
                  <th scope="col" class="num">Share</th>
                </tr>
              </thead>
              <tbody>
                {values.map(({ value, count }) => (
                  <tr>
                    <td class={field == 'page' ? 'url' : undefined}>
                      {value ? (
                        <a href={`/sites/${segment(siteKey)}${searchOf(changed(view, { filters: { ...view.filters, [filter]: value } }))}`} title={`Issues with ${filter} ${value}`}>
                          {clip(value, 200)}
                        </a>
                      ) : (
                        <span class="muted">(none)</span>
                      )}
                    </td>
                    <td class="num">{formatNumber(count)}</td>
                    <td class="num">{percent(total ? count / total : 0)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      );
    })}
  </div>
);
