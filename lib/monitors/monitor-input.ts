// A monitor's GraphQL input as SQL arguments, shared by createMonitor, updateMonitor and
// monitorPreview (and its benchmark). app_accounts.save_monitor and app_hidden.monitor_preview take
// the same parameters, which app_hidden.checked_monitor checks; the calls name them (`name =>
// $3`), so the contract is the parameter names the SQL declares, not an order kept in two places.

/** The monitor input fields (CreateMonitorInput / UpdateMonitorInput) that SQL checks. */
export type MonitorInput = Record<string, unknown> & {
  location?: { latitude: number; longitude: number } | null;
};

/** SQL parameter → its value from the input; `location_given` tells "clear it" from "keep it". */
const PARAMETERS: ReadonlyArray<[parameter: string, value: (input: MonitorInput) => unknown]> = [
  ["location_given", (input) => "location" in input],
  ["name", (input) => input.name ?? null],
  ["description", (input) => input.description ?? null],
  ["active", (input) => input.active ?? null],
  ["type", (input) => input.type ?? null],
  ["query", (input) => input.query ?? null],
  ["latitude", (input) => input.location?.latitude ?? null],
  ["longitude", (input) => input.location?.longitude ?? null],
  ["location_mode", (input) => input.locationMode ?? null],
  ["location_live_source_id", (input) => input.locationLiveSourceId ?? null],
  ["radius", (input) => input.radius ?? null],
  ["channels", (input) => input.channels ?? null],
  ["notification_rules", (input) => input.notificationRules ?? null],
];

export interface SqlCall {
  /** `app_accounts.save_monitor(monitor_uuid => $1, location_given => $2, …)`, to select from. */
  text: string;
  values: unknown[];
}

/** A call of `fn` with the leading named arguments, then the monitor input's. */
export function monitorInputCall(fn: string, leading: Record<string, unknown>, input: MonitorInput): SqlCall {
  const named = [
    ...Object.entries(leading),
    ...PARAMETERS.map(([parameter, value]) => [parameter, value(input)] as const),
  ];
  return {
    text: `${fn}(${named.map(([parameter], i) => `${parameter} => $${i + 1}`).join(", ")})`,
    values: named.map(([, value]) => value),
  };
}

/** createMonitor (no uuid) and updateMonitor: the saved monitor's uuid. */
export const saveMonitorCall = (monitorUuid: string | null, input: MonitorInput): SqlCall =>
  monitorInputCall("app_accounts.save_monitor", { monitor_uuid: monitorUuid }, input);

/** monitorPreview: matches, notifications, by_day, message_uuids and items over the last `days`. */
export const monitorPreviewCall = (days: number | null, input: MonitorInput): SqlCall =>
  monitorInputCall("app_hidden.monitor_preview", { days }, input);
