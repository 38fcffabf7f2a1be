// The dashboards (issue 31, part 3). Placeholder until they land.
import { h } from "../dom.ts";
import type { Screen } from "../context.ts";

export const dashboardsScreen: Screen = (root) => {
  root.append(h("h1", {}, "Dashboards"));
  return () => root.replaceChildren();
};
