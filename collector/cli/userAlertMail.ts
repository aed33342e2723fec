import { databaseLocation, UsageError, withStore } from './args';
import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';
import { userEmail } from './userEmail';

/**
 * `sitebeacon user alert-mail EMAIL on|off`: whether the user gets the built-in alert mail of the
 * sites they see (docs/alerts.md, "Out of the box"); off for every user until turned on.
 */
export const userAlertMail = defineCommand({
  name: ['user', 'alert-mail'],
  summary: "turn a dashboard user's alert mail on or off",
  help: "turns on or off the mail of the built-in alerts (a new issue, a regression) for the sites the user sees; off for every user until turned on",
  args: [
    { name: 'EMAIL', help: "the user's email" },
    { name: 'STATE', help: '`on` or `off`' },
  ],
  flags: { ...DATABASE_FLAGS },
  run: async ({ values, args: [email, state] }, io) => {
    const address = userEmail(email!, 'alert-mail');
    if (state != 'on' && state != 'off') throw new UsageError(`user alert-mail takes on or off, not "${state}"`);
    const found = await withStore(databaseLocation(values, io), (store) => store.alerts.setEmailAlerts(address, state == 'on'));
    if (!found) {
      io.err(`sitebeacon: no user has the email ${address}`);
      return 1;
    }
    io.out(values.json ? JSON.stringify({ email: address, alert_mail: state == 'on' }) : `Alert mail ${state} for ${address}.`);
  },
});
