import { changed, DEVICES, FILTERS, searchOf, type IssueFilter, type IssueView } from '../issueQuery';

/** What the parser names most often (collector/core/clientOf.ts): offered, and any other value may be typed. */
const BROWSERS = ['Chrome', 'Edge', 'Firefox', 'Safari', 'Samsung Internet', 'Opera'];
const SYSTEMS = ['Android', 'iOS', 'Windows', 'macOS', 'Linux', 'Chrome OS'];

const LABELS: Record<IssueFilter, string> = { page: 'Page URL', browser: 'Browser', os: 'OS', device: 'Device', release: 'Release', environment: 'Environment' };

/**
 * The list's search box and report filters (docs/issues.md, "The API": `q`, `page`, `browser`,
 * `os`, `device`, `release`, `environment`), each a text box offering the values known (a
 * datalist: the parser's common names, the releases the list shows) and taking any other. Applying
 * them loads the page's URL with them in its query, so the back button and a reload keep them;
 * without script the form sends the same query itself.
 *
 * @example
 * <IssueFilters view={view} releases={['1.2', '1.3']} />
 */
export const IssueFilters = ({ view, releases }: { view: IssueView; releases: string[] }) => {
  const offered: Partial<Record<IssueFilter, string[]>> = { browser: BROWSERS, os: SYSTEMS, release: releases };
  const apply = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    const filters: IssueView['filters'] = {};
    for (const name of FILTERS) {
      const value = text(name);
      if (value) filters[name] = value;
    }
    location.assign(searchOf(changed(view, { q: text('q'), filters })));
  };
  const active = !!view.q || Object.keys(view.filters).length > 0;
  return (
    <form class="filters" method="get" role="search" aria-label="Issues" onSubmit={apply}>
      <input type="hidden" name="range" value={view.range} />
      {view.status != 'unresolved' && <input type="hidden" name="status" value={view.status} />}
      {view.sort != 'last_seen' && <input type="hidden" name="sort" value={view.sort} />}
      {view.includeBots && <input type="hidden" name="bots" value="include" />}
      <label class="search">
        <span>Search</span>
        <input type="search" name="q" value={view.q ?? ''} maxLength={200} placeholder="Words of the message, name or type" />
      </label>
      {FILTERS.map((name) =>
        name == 'device' ? (
          <label>
            <span>{LABELS[name]}</span>
            <select name="device" value={view.filters.device ?? ''}>
              <option value="">Any</option>
              {DEVICES.map((device) => (
                <option value={device}>{device}</option>
              ))}
            </select>
          </label>
        ) : (
          <label>
            <span>{LABELS[name]}</span>
            <input name={name} value={view.filters[name] ?? ''} maxLength={name == 'page' ? 2048 : 200} list={offered[name] ? `issue-${name}-values` : undefined} autocomplete="off" />
            {offered[name] && (
              <datalist id={`issue-${name}-values`}>
                {offered[name].map((value) => (
                  <option value={value} />
                ))}
              </datalist>
            )}
          </label>
        ),
      )}
      <div class="filter-buttons">
        <button type="submit">Apply</button>
        {active && <a href={searchOf(changed(view, { q: undefined, filters: {} }))}>Clear</a>}
      </div>
    </form>
  );
};
