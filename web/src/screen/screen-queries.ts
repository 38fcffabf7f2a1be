// The station screen's operations: pairing with the web application's credential, then the
// screen itself (query and subscription, the same fields) with the screen's own, its pages in plain
// words in the screen's language.
import { graphql } from "../api/graphql.ts";

export const RequestPairing = graphql(`
  mutation ScreenRequestPairing {
    requestScreenPairing {
      code
      pairingSecret
      expiresAt
    }
  }
`);

export const ClaimScreen = graphql(`
  mutation ScreenClaim($secret: String!) {
    claimStationScreen(pairingSecret: $secret) {
      token
      name
    }
  }
`);

export const ScreenFields = graphql(`
  fragment ScreenFields on StationScreen {
    uuid
    name
    latitude
    longitude
    alarmMinutes
    monitors {
      uuid
      name
      latitude
      longitude
      radius
    }
    matches(first: 10, language: $language) {
      monitorName
      incidentUuid
      messageUuid
      sended
      lastSended
      message
      plainText
      urgency
      discipline
      street
      city
      latitude
      longitude
      units
      responders {
        name
        status
        arrivesAt
      }
      reAlertedAt
      comingWanted
    }
    crew {
      channelUuid
      name
      availability
      until
    }
  }
`);

export const ScreenQuery = graphql(
  `
    query StationScreen($language: String!) {
      stationScreen {
        ...ScreenFields
      }
    }
  `,
  [ScreenFields],
);

export const ScreenSubscription = graphql(
  `
    subscription StationScreenLive($language: String!) {
      stationScreen {
        ...ScreenFields
      }
    }
  `,
  [ScreenFields],
);
