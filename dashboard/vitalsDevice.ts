/** The kinds of device the Web Vitals can be read for (docs/vitals.md, "By device"). */
export const VITALS_DEVICES = ['mobile', 'tablet', 'desktop'] as const;
export type VitalsDevice = (typeof VITALS_DEVICES)[number];

/** The query parameter of the site page's device switch: apart from the issues' own `device` filter. */
const PARAM = 'vitals_device';

/**
 * The device the site page's Web Vitals and pages are read for, from its `?query`; undefined for
 * every session (and for anything that is not a known device).
 *
 * @example
 * vitalsDeviceOf('?range=7d&vitals_device=mobile') // 'mobile'
 */
export const vitalsDeviceOf = (search: string): VitalsDevice | undefined => {
  const value = new URLSearchParams(search).get(PARAM);
  return VITALS_DEVICES.find((device) => device == value);
};

/**
 * The page's `?query` with the device switched (undefined: every device), the rest kept as it is.
 *
 * @example
 * withVitalsDevice('?range=7d', 'mobile') // '?range=7d&vitals_device=mobile'
 */
export const withVitalsDevice = (search: string, device: VitalsDevice | undefined) => {
  const params = new URLSearchParams(search);
  if (device) params.set(PARAM, device);
  else params.delete(PARAM);
  return `?${params}`;
};
