import { csp } from './csp';
import { errors } from './errors';
import type { BeaconOptions, Capture } from './init';
import { lazyVitals } from './lazyVitals';

/**
 * The options the script tag's data- attributes describe (docs/beacon.md, "Script tag attributes"). The endpoint
 * attributes are named like the options (`data-api-base` is `dataset.apiBase`), so they pass as
 * they are. Vitals come from `beacon.vitals.js`, beside the script itself: `/beacon.js` loads
 * `/beacon.vitals.js`, `beacon.min.js?v=2` loads `beacon.vitals.min.js?v=2`. A script without
 * such a name (an inline copy) sends no vitals, and a sample rate of 0 does not load them.
 *
 * @example
 * scriptOptions(document.currentScript)
 */
export const scriptOptions = ({ dataset: data, src, nonce = '' }: HTMLScriptElement): BeaconOptions => {
  const sampleRate = Number(data.sampleRate ?? 1);
  const vitalsSrc = src.replace(/(\.min)?\.js(?=[?#]|$)/, '.vitals$&');
  // No prototype: data-capture="constructor" names nothing.
  const captures: Record<string, (() => Capture | false) | undefined> = {
    __proto__: null,
    errors,
    csp,
    vitals: () => sampleRate != 0 && vitalsSrc != src && lazyVitals(vitalsSrc, nonce, { sampleRate: sampleRate >= 0 ? sampleRate : 1 }),
  } as never;
  return {
    ...(data as unknown as BeaconOptions),
    capture: (data.capture ?? 'errors,csp,vitals')
      .split(',')
      .map((name) => captures[name.trim()]?.())
      .filter((capture): capture is Capture => !!capture),
  };
};
