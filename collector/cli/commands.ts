import { actionAdd } from './actionAdd';
import { agentRevoke } from './agentRevoke';
import { alertAdd } from './alertAdd';
import { alertList } from './alertList';
import { alertRemove } from './alertRemove';
import { alertTest } from './alertTest';
import { backup } from './backup';
import { check } from './check';
import type { AnyCommand } from './defineCommand';
import { exportRecords } from './exportRecords';
import { keyCreate } from './keyCreate';
import { keyRevoke } from './keyRevoke';
import { migrate } from './migrate';
import { restore } from './restore';
import { serve } from './serve';
import { siteAdd } from './siteAdd';
import { snippetCommand } from './snippet';
import { sourcemapsUpload } from './sourcemapsUpload';
import { siteRotateKey } from './siteRotateKey';
import { siteRoutes } from './siteRoutes';
import { wordpressRevoke } from './wordpressRevoke';
import { userAdd } from './userAdd';
import { userAlertMail } from './userAlertMail';
import { userRemove } from './userRemove';
import { userResetPassword } from './userResetPassword';
import { userSignOut } from './userSignOut';

/**
 * The command table, in the order `sitebeacon --help` and the README list them. Each command is
 * declared once, in its own file (defineCommand.ts): its words, flags, arguments, help and action.
 * No command's words are a prefix of another's.
 */
export const COMMANDS: readonly AnyCommand[] = [
  serve,
  siteAdd,
  snippetCommand,
  siteRotateKey,
  siteRoutes,
  keyCreate,
  keyRevoke,
  agentRevoke,
  wordpressRevoke,
  actionAdd,
  userAdd,
  userRemove,
  userResetPassword,
  userSignOut,
  userAlertMail,
  alertAdd,
  alertList,
  alertRemove,
  alertTest,
  exportRecords,
  migrate,
  backup,
  restore,
  sourcemapsUpload,
  check,
];
