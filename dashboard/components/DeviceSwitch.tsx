import { VITALS_DEVICES, withVitalsDevice, type VitalsDevice } from '../vitalsDevice';

const LABELS: Record<VitalsDevice | 'all', string> = { all: 'All devices', mobile: 'Mobile', tablet: 'Tablet', desktop: 'Desktop' };

/**
 * The site page's device switch (docs/vitals.md, "By device"; docs/dashboard.md): the Web Vitals
 * and the pages of every session, or of one kind of device's, as links, so the choice is in the URL
 * (`vitals_device`): it survives a reload, the back button and a shared link; the rest of the
 * page's query stays. It lands on the Web Vitals again.
 *
 * @example
 * <DeviceSwitch current="mobile" />
 */
export const DeviceSwitch = ({ current }: { current: VitalsDevice | undefined }) => (
  <nav class="ranges devices" aria-label="Device" data-testid="device-switch">
    {([undefined, ...VITALS_DEVICES] as const).map((device) => (
      <a
        href={`${withVitalsDevice(location.search, device)}#vitals-title`}
        aria-current={device == current ? 'page' : undefined}
        class={device == current ? 'current' : undefined}
      >
        {LABELS[device ?? 'all']}
      </a>
    ))}
  </nav>
);
