// The Channels screen's operations, typed against schema.graphql by gql.tada.
import { graphql, type ResultOf } from "../../api/graphql.ts";

export const ChannelsQuery = graphql(`
  query ConsoleChannels {
    channels {
      uuid
      type
      name
      emailAddress
      phoneNumber
      url
      chatId
      serverUrl
      topic
      headers {
        name
      }
      created
      disabledAt
      disabledReason
    }
  }
`);

/** Reference data: read with the page's API token (channelTypes is public data, as the map's). */
export const ChannelTypesQuery = graphql(`
  query ConsoleChannelTypes {
    channelTypes {
      value
      label
    }
    webPushPublicKey
  }
`);

export type Channel = NonNullable<ResultOf<typeof ChannelsQuery>["channels"]>[number];

export const CreateChannelMutation = graphql(`
  mutation ConsoleCreateChannel($input: CreateChannelInput!) {
    createChannel(input: $input) {
      signingSecret
      channel {
        uuid
        name
      }
    }
  }
`);

export const DeleteChannelMutation = graphql(`
  mutation ConsoleDeleteChannel($uuid: String!) {
    deleteChannel(uuid: $uuid)
  }
`);

export const SendTestMutation = graphql(`
  mutation ConsoleSendTest($channel: String!) {
    sendTestNotification(channel: $channel) {
      delivered
      outcome
      responseCode
      reply
      latencyMs
      error
    }
  }
`);

export type TestResult = NonNullable<ResultOf<typeof SendTestMutation>["sendTestNotification"]>;

export const ChannelDeliveriesQuery = graphql(`
  query ConsoleChannelDeliveries($channel: String!, $first: Int) {
    deliveries(filter: { channel: $channel }, first: $first) {
      uuid
      test
      itemTitle
      monitorName
      created
      deliveredAt
      lastAttemptAt
      outcome
      attempts
      responseCode
      error
    }
  }
`);
