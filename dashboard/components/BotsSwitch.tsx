import { formatNumber } from '../format';
import { changed, searchOf, type IssueView } from '../issueQuery';

/**
 * The issues' "Include bots" switch (docs/issues.md, "Bots"): it loads the page's URL with
 * `bots=include` added or removed, as the other filters do, so a reload and a shared link keep it;
 * with bots left out, how many of their reports the read did not count (`bot_reports`).
 *
 * @example
 * <BotsSwitch view={view} botReports={list.data.bot_reports} />
 */
export const BotsSwitch = ({ view, botReports }: { view: IssueView; botReports: number | undefined }) => {
  const toggle = (event: Event) => location.assign(`${location.pathname}${searchOf(changed(view, { includeBots: (event.currentTarget as HTMLInputElement).checked }))}`);
  return (
    <div class="bots">
      <label>
        <input type="checkbox" name="bots" value="include" checked={view.includeBots} onChange={toggle} /> Include bots
      </label>
      {!view.includeBots && !!botReports && (
        <span class="muted small" data-testid="bots-not-counted">
          {formatNumber(botReports)} {botReports == 1 ? 'report' : 'reports'} from bots not counted
        </span>
      )}
    </div>
  );
};
