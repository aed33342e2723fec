// The same hash the collector stores for API keys (collector/http/apiKeys.ts).
import { createHash } from 'node:crypto';

export const hashApiKeyForBench = (key) => createHash('sha256').update(key).digest('hex');
