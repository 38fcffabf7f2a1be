// Every operation of the live map, typed against schema.graphql by gql.tada. Each feed has one
// query (the state on load and after a reconnect) and one subscription (its changes); nothing polls.
import { graphql } from "../api/graphql.ts";

/**
 * What the list and the markers need of an incident. A dossier's position is that of its first
 * message with one; how precise it is (the dossier has no positionPrecision of its own) is that
 * message's positionPrecision, so the markers read their messages' positions. Its messages say too
 * whether they are the demo's synthetic pages (isDemo), and its category what kind of incident it is.
 */
export const DossierSummary = graphql(`
  fragment DossierSummary on P2000Dossier {
    uuid
    title
    city
    street
    latitude
    longitude
    messages {
      latitude
      longitude
      positionPrecision
      isDemo
    }
    category {
      code
      name
    }
    firstSended
    lastSended
    messageCount
    gripLevel
    discipline {
      slug
      name
    }
    urgency {
      code
      level
      rank
    }
    region {
      number
      name
    }
  }
`);

/** An exercise message: exercises have no dossier, so they are shown as single messages. */
export const ExerciseSummary = graphql(`
  fragment ExerciseSummary on P2000Message {
    uuid
    message
    sended
    city
    street
    latitude
    longitude
    positionPrecision
    isDemo
    category {
      code
      name
    }
    discipline {
      slug
      name
    }
    region {
      number
      name
    }
  }
`);

// The newest 500 dossiers and 100 exercises in one request. The page cap of p2000Dossiers and
// p2000Messages is 100 (spec §8), so the dossiers are five pages side by side (MAP_INCIDENTS in
// map-limits.ts); one request instead of six spares the service five token checks and transactions.
export const IncidentsQuery = graphql(
  `
    query MapIncidents {
      page1: p2000Dossiers(first: 100, page: 1) {
        ...DossierSummary
      }
      page2: p2000Dossiers(first: 100, page: 2) {
        ...DossierSummary
      }
      page3: p2000Dossiers(first: 100, page: 3) {
        ...DossierSummary
      }
      page4: p2000Dossiers(first: 100, page: 4) {
        ...DossierSummary
      }
      page5: p2000Dossiers(first: 100, page: 5) {
        ...DossierSummary
      }
      exercises: p2000Messages(first: 100, filter: { exerciseType: "oefening" }) {
        ...ExerciseSummary
      }
    }
  `,
  [DossierSummary, ExerciseSummary],
);

/** Every new message, exercises included: a real one carries its dossier as it is now. */
export const MessagesSubscription = graphql(
  `
    subscription MapMessages {
      p2000Messages(filter: { exerciseType: "all" }) {
        exerciseType
        ...ExerciseSummary
        dossier {
          ...DossierSummary
        }
      }
    }
  `,
  [DossierSummary, ExerciseSummary],
);

/**
 * An open incident: its messages with the capcodes they went to (named by their description, else
 * by the discipline and region the capcode list has for them), and each in plain words in the
 * page's language ($language of the operation). The capcodes' fields are written out, not a
 * fragment: the service's depth limit (7) counts each fragment as a level.
 */
export const DossierDetail = graphql(
  `
    fragment DossierDetail on P2000Dossier {
      ...DossierSummary
      incidentNumber
      messages {
        uuid
        message
        plainText(language: $language)
        sended
        isDemo
        capcodes {
          name
          description
          kind
          location
          discipline {
            slug
            name
          }
          region {
            name
          }
        }
      }
      timeline {
        uuid
        kind
        sended
        previousValue
        newValue
      }
      relatedSignals {
        uuid
        kind
        title
        at
        distanceMetres
      }
    }
  `,
  [DossierSummary],
);

/** One dossier (first: 1, so the query's cost is one dossier's, not a page's). */
export const DossierQuery = graphql(
  `
    query MapDossier($uuid: String!, $language: String!) {
      p2000Dossiers(first: 1, filter: { dossier: { uuid: $uuid } }) {
        ...DossierDetail
      }
    }
  `,
  [DossierDetail],
);

export const DossierSubscription = graphql(
  `
    subscription MapDossierLive($uuid: String!, $language: String!) {
      p2000Dossier(dossier: { uuid: $uuid }) {
        ...DossierDetail
      }
    }
  `,
  [DossierDetail],
);

export const ExerciseQuery = graphql(
  `
    query MapExercise($uuid: String!, $language: String!) {
      p2000Message(uuid: $uuid) {
        ...ExerciseSummary
        plainText(language: $language)
        capcodes {
          name
          description
          kind
          location
          discipline {
            slug
            name
          }
          region {
            name
          }
        }
      }
    }
  `,
  [ExerciseSummary],
);

export const TrafficFields = graphql(`
  fragment TrafficFields on TrafficIncident {
    uuid
    type
    roadNumber
    latitude
    longitude
    startAt
    firstSeenAt
  }
`);

// trafficIncidents documents a cap of 200.
export const TrafficQuery = graphql(
  `
    query MapTraffic {
      trafficIncidents(active: true, first: 200) {
        ...TrafficFields
      }
    }
  `,
  [TrafficFields],
);

export const TrafficSubscription = graphql(
  `
    subscription MapTrafficLive {
      trafficIncidents(active: true, first: 200) {
        ...TrafficFields
      }
    }
  `,
  [TrafficFields],
);

export const MeteoFields = graphql(`
  fragment MeteoFields on MeteoRegion {
    code
    name
    statusCode
  }
`);

export const MeteoQuery = graphql(
  `
    query MapMeteo {
      meteoRegions {
        ...MeteoFields
      }
    }
  `,
  [MeteoFields],
);

export const MeteoSubscription = graphql(
  `
    subscription MapMeteoLive {
      meteoRegions {
        ...MeteoFields
      }
    }
  `,
  [MeteoFields],
);

export const NlAlertFields = graphql(`
  fragment NlAlertFields on NlAlert {
    uuid
    messageNl
    messageEn
    areas
    startAt
  }
`);

export const NlAlertsQuery = graphql(
  `
    query MapNlAlerts {
      nlAlerts(activeOnly: true) {
        ...NlAlertFields
      }
    }
  `,
  [NlAlertFields],
);

export const NlAlertsSubscription = graphql(
  `
    subscription MapNlAlertsLive {
      nlAlerts(activeOnly: true) {
        ...NlAlertFields
      }
    }
  `,
  [NlAlertFields],
);

export const AmberFields = graphql(`
  fragment AmberFields on AmberAlert {
    uuid
    title
    label
    level
    descriptionExt
    readMoreUrl
  }
`);

export const AmberQuery = graphql(
  `
    query MapAmber {
      amberAlerts(activeOnly: true) {
        ...AmberFields
      }
    }
  `,
  [AmberFields],
);

export const AmberSubscription = graphql(
  `
    subscription MapAmberLive {
      amberAlerts(activeOnly: true) {
        ...AmberFields
      }
    }
  `,
  [AmberFields],
);

export const AircraftFields = graphql(`
  fragment AircraftFields on Aircraft {
    icao
    registration
    kind
    callsign
    latitude
    longitude
    track
    altitudeFt
    onGround
    lastSeenAt
  }
`);

/** The tracked fleet (trauma and police helicopters). */
export const FleetQuery = graphql(
  `
    query MapFleet {
      aircraft {
        ...AircraftFields
      }
    }
  `,
  [AircraftFields],
);

/** The flight a helicopter is on, to draw where it came from before the page was opened. */
export const ActiveRouteQuery = graphql(`
  query MapActiveRoute($icao: String!) {
    aircraftRoutes(icao: $icao, status: "active", limit: 1) {
      path
    }
  }
`);

export const AircraftSubscription = graphql(
  `
    subscription MapAircraftLive($icao: String!) {
      aircraftLive(icao: $icao) {
        ...AircraftFields
      }
    }
  `,
  [AircraftFields],
);
