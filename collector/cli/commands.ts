import { actionAdd } from './actionAdd';
import { agentRevoke } from './agentRevoke';
import { backup } from './backup';
import type { CliIO } from './args';
import { check } from './check';
import { exportRecords } from './exportRecords';
import { keyCreate } from './keyCreate';
import { keyRevoke } from './keyRevoke';
import { migrate } from './migrate';
import { restore } from './restore';
import { serve } from './serve';
import { siteAdd } from './siteAdd';
import { snippetCommand } from './snippet';
import { siteRotateKey } from './siteRotateKey';
import { wordpressRevoke } from './wordpressRevoke';
import { userAdd } from './userAdd';
import { userRemove } from './userRemove';
import { userResetPassword } from './userResetPassword';
import { userSignOut } from './userSignOut';

/** A command: resolves to its exit code, or to nothing for 0. */
export type Command = (args: string[], io: CliIO) => Promise<number | void>;

/**
 * The command table: the words that name a command, and what runs it with the arguments after
 * them. Longest names first is not needed: no name is a prefix of another.
 */
export const COMMANDS: Array<{ name: string[]; run: Command }> = [
  { name: ['serve'], run: serve },
  { name: ['site', 'add'], run: siteAdd },
  { name: ['snippet'], run: snippetCommand },
  { name: ['site', 'rotate-key'], run: siteRotateKey },
  { name: ['key', 'create'], run: keyCreate },
  { name: ['key', 'revoke'], run: keyRevoke },
  { name: ['agent', 'revoke'], run: agentRevoke },
  { name: ['wordpress', 'revoke'], run: wordpressRevoke },
  { name: ['action', 'add'], run: actionAdd },
  { name: ['export'], run: exportRecords },
  { name: ['user', 'add'], run: userAdd },
  { name: ['user', 'remove'], run: userRemove },
  { name: ['user', 'reset-password'], run: userResetPassword },
  { name: ['user', 'sign-out'], run: userSignOut },
  { name: ['check'], run: check },
  { name: ['migrate'], run: migrate },
  { name: ['backup'], run: backup },
  { name: ['restore'], run: restore },
];
