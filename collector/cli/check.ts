import { runCheck } from '../check/runCheck';
import type { CliIO } from './args';

/** `sitebeacon check URL ...`: the connectivity diagnosis (check/runCheck.ts); its exit code is the command's. */
export const check = (args: string[], io: CliIO) => runCheck({ argv: args, env: io.env }, io);
