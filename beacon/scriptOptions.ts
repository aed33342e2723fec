import { csp } from './csp';
import { errors } from './errors';
import type { BeaconOptions, Capture } from './init';
import { vitals } from './vitals';

/**
 * The options the script tag's data- attributes describe (design, "Script tag"). The endpoint
 * attributes are named like the options (`data-api-base` is `dataset.apiBase`), so they pass as they are.
 *
 * @example
 * scriptOptions({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: 'errors,csp' })
 */
export const scriptOptions = (data: DOMStringMap): BeaconOptions => {
  const sampleRate = Number(data.sampleRate ?? 1);
  // No prototype: data-capture="constructor" names nothing.
  const captures: Record<string, (() => Capture) | undefined> = {
    __proto__: null,
    errors,
    csp,
    vitals: () => vitals({ sampleRate: sampleRate >= 0 ? sampleRate : 1 }),
  } as never;
  return {
    ...(data as unknown as BeaconOptions),
    capture: (data.capture ?? 'errors,csp,vitals')
      .split(',')
      .map((name) => captures[name.trim()]?.())
      .filter((capture): capture is Capture => !!capture),
  };
};
