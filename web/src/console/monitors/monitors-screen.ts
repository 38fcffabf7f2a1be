// The Monitors screens of the console (/console/monitors): the list, a new monitor
// (/console/monitors/new), a monitor's page (/console/monitors/<uuid>) and its edit form
// (/console/monitors/<uuid>/edit) and following one incident (/console/monitors/follow/<incident>),
// picked by the path.
import { statusLine } from "../form.ts";
import { h } from "../../dom.ts";
import { t } from "../../i18n.ts";
import type { ConsoleScreen } from "../console-context.ts";
import "./monitor-texts.ts";
import { followIncident } from "./follow-incident.ts";
import { monitorForm } from "./monitor-form.ts";
import { monitorList } from "./monitor-list.ts";
import { monitorPage } from "./monitor-page.ts";
import { MonitorChannelsQuery, MonitorQuery, MonitorTypesQuery } from "./monitor-queries.ts";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

export const monitorsScreen: ConsoleScreen = (root, context) => {
  const path = location.pathname.replace(/\/$/, "");
  const { element: status, say } = statusLine();
  let teardown: (() => void) | undefined;
  let disposed = false;
  const fail = (error: Error) => {
    say(error.message);
    root.append(status);
  };

  if (path === "/console/monitors") monitorList(root, context);
  else if (path === "/console/monitors/new") {
    void Promise.all([context.session.api.request(MonitorChannelsQuery), context.api.request(MonitorTypesQuery)])
      .then(([{ channels }, { monitorTypes }]) => {
        if (!disposed)
          teardown = monitorForm(root, context, { monitor: null, channels: channels ?? [], types: monitorTypes });
      })
      .catch(fail);
  } else if (path.startsWith("/console/monitors/follow/")) {
    followIncident(root, context, path.slice("/console/monitors/follow/".length));
  } else {
    const match = new RegExp(`^/console/monitors/(${UUID})(/edit)?$`, "i").exec(path);
    if (!match) root.append(h("h1", {}, t("error.notFound")));
    else if (!match[2]) teardown = monitorPage(root, context, match[1]);
    else
      void Promise.all([
        context.session.api.request(MonitorQuery, { uuid: match[1] }),
        context.api.request(MonitorTypesQuery),
      ])
        .then(([{ monitor, channels }, { monitorTypes }]) => {
          if (disposed) return;
          if (!monitor) root.append(h("h1", {}, t("monitors.notFound")));
          else teardown = monitorForm(root, context, { monitor, channels: channels ?? [], types: monitorTypes });
        })
        .catch(fail);
  }
  return () => {
    disposed = true;
    teardown?.();
  };
};
