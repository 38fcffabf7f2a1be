// The monitors screens' GraphQL operations, typed against schema.graphql by gql.tada.
import { graphql, type ResultOf } from "../../api/graphql.ts";

export const MonitorsQuery = graphql(`
  query ConsoleMonitors {
    monitors {
      uuid
      name
      type
      active
      channels
      radius
    }
    channels {
      uuid
      name
      type
    }
  }
`);

/** The environment's channels, as the monitor form and a follow offer them. */
export const MonitorChannelsQuery = graphql(`
  query ConsoleMonitorChannels {
    channels {
      uuid
      name
      type
    }
  }
`);

export const MonitorQuery = graphql(`
  query ConsoleMonitor($uuid: String!) {
    monitor(uuid: $uuid) {
      uuid
      name
      type
      active
      query
      channels
      notificationRules
      location {
        latitude
        longitude
      }
      radius
      feedCreatedAt
      followsIncident
      responders {
        uuid
        status
        recipient
        changed
        channel {
          name
        }
      }
    }
    channels {
      uuid
      name
      type
    }
  }
`);

export type Monitor = NonNullable<ResultOf<typeof MonitorQuery>["monitor"]>;
export type MonitorsResult = ResultOf<typeof MonitorsQuery>;
export type Channel = NonNullable<ResultOf<typeof MonitorChannelsQuery>["channels"]>[number];
export type MonitorType = ResultOf<typeof MonitorTypesQuery>["monitorTypes"][number];

export const DeliveriesQuery = graphql(`
  query ConsoleMonitorDeliveries($monitor: String!) {
    deliveries(filter: { monitor: $monitor }, first: 50) {
      uuid
      created
      outcome
      attempts
      channelName
      itemKind
      itemTitle
      responseCode
      error
    }
  }
`);

export const CreateMonitorMutation = graphql(`
  mutation ConsoleCreateMonitor($input: CreateMonitorInput!) {
    createMonitor(input: $input) {
      uuid
    }
  }
`);

export const UpdateMonitorMutation = graphql(`
  mutation ConsoleUpdateMonitor($input: UpdateMonitorInput!) {
    updateMonitor(input: $input) {
      uuid
      active
    }
  }
`);

/** The incident a follow is about, as the map names it (public data: the page's credential). */
export const FollowedIncidentQuery = graphql(`
  query ConsoleFollowedIncident($uuid: String!) {
    p2000Dossiers(first: 1, filter: { dossier: { uuid: $uuid } }) {
      uuid
      title
      firstSended
    }
  }
`);

export const FollowIncidentMutation = graphql(`
  mutation ConsoleFollowIncident($incident: String!, $channels: String) {
    followIncident(incident: $incident, channels: $channels) {
      uuid
    }
  }
`);

export const DeleteMonitorMutation = graphql(`
  mutation ConsoleDeleteMonitor($uuid: String!) {
    deleteMonitor(uuid: $uuid)
  }
`);

export const RotateFeedMutation = graphql(`
  mutation ConsoleRotateMonitorFeed($monitor: String!) {
    rotateMonitorFeed(monitor: $monitor) {
      atomUrl
      geojsonUrl
      icsUrl
      createdAt
    }
  }
`);

export const RevokeFeedMutation = graphql(`
  mutation ConsoleRevokeMonitorFeed($monitor: String!) {
    revokeMonitorFeed(monitor: $monitor)
  }
`);

export const PreviewQuery = graphql(`
  query ConsoleMonitorPreview($input: CreateMonitorInput!, $language: String!) {
    monitorPreview(input: $input, days: 30) {
      matches
      notifications
      byDay {
        date
        matches
        notifications
      }
      items {
        uuid
        kind
        at
        title
        latitude
        longitude
      }
      bursts {
        startedAt
        matches
        label
        notified
        suppressedReason
      }
      # The newest P2000 matches in plain words, for the list of the newest matches.
      messages {
        uuid
        plainText(language: $language)
      }
    }
  }
`);

export type Preview = NonNullable<ResultOf<typeof PreviewQuery>["monitorPreview"]>;

// The reference lists (public data: asked with the page's API credential, not the person's session).
export const MonitorTypesQuery = graphql(`
  query ConsoleMonitorTypes {
    monitorTypes {
      value
      label
    }
  }
`);

export const P2000ReferenceQuery = graphql(`
  query ConsoleP2000Reference {
    p2000Regions(first: 50) {
      number
      slug
      name
    }
    p2000Disciplines(first: 50) {
      slug
      name
    }
    p2000Urgencies(first: 100) {
      code
      name
      rank
      level
    }
  }
`);

/** Places, streets, postcodes and addresses as someone types where the monitor listens. */
export const LocationSuggestionsQuery = graphql(`
  query ConsoleLocationSuggestions($search: String!) {
    locationSuggestions(search: $search, first: 8) {
      kind
      label
      detail
      latitude
      longitude
    }
  }
`);

export const AreaChoicesQuery = graphql(`
  query ConsoleAreaChoices($search: String!) {
    areaChoices(search: $search, first: 12) {
      kind
      code
      name
      municipalityName
    }
  }
`);

export const CapcodeSearchQuery = graphql(`
  query ConsoleCapcodeSearch($search: String!) {
    p2000Capcodes(filter: { search: $search }, first: 30) {
      name
      description
      location
    }
  }
`);

export const HighwaysQuery = graphql(`
  query ConsoleHighways {
    highways {
      value
      label
    }
  }
`);

export const RailRoutesQuery = graphql(`
  query ConsoleRailRoutes {
    railRoutes {
      value
      label
    }
  }
`);

export const MeteoReferenceQuery = graphql(`
  query ConsoleMeteoReference {
    meteoRegions {
      code
      name
    }
    meteoColorCodes {
      value
      label
    }
  }
`);

export const ProvincesQuery = graphql(`
  query ConsoleProvinces {
    nlProvinces {
      code
      name
    }
  }
`);

/** The environment's P2000 receivers, which a receiver_silence monitor watches by name. */
export const ReceiverNamesQuery = graphql(`
  query ConsoleReceiverNames {
    p2000Receivers {
      name
    }
  }
`);

export const TrafficTypesQuery = graphql(`
  query ConsoleTrafficTypes {
    trafficIncidentTypes {
      value
      label
    }
  }
`);
