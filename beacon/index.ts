export { init } from './init';
export type { Beacon, BeaconContext, BeaconOptions, Capture, ReportKind } from './init';
export { errors } from './errors';
export { csp } from './csp';
export { earlyEvents } from './earlyEvents';
export { vitals } from './vitals';
export type { VitalsOptions } from './vitalsSession';
export type { EndpointOptions, Endpoints } from './config';
export type { ErrorReport } from './lib/errorReport';
